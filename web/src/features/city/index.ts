// Loaded on demand with its map (the route is lazy): nothing else may import this feature statically.
export { SelectCityPage } from './SelectCityPage';
