export { LandingPage } from './LandingPage';
