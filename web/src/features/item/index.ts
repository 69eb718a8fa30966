export { ItemPage } from './ItemPage';
export { PostFormPage } from './PostFormPage';
