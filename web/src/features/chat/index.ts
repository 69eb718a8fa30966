export { ChatProvider } from './ChatProvider';
export { ChatsPage } from './ChatsPage';
export { useOpenChatAt } from './useOpenChatAt';
