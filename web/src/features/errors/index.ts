export { ErrorPage } from './ErrorPage';
export { installErrorReporter } from './jsErrorReporter';
