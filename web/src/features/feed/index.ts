export { Feed } from './Feed';
export { FeedPage } from './FeedPage';
