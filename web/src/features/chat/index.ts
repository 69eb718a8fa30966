export { ChatProvider } from './ChatProvider';
export { ChatsPage } from './ChatsPage';
