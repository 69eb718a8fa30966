import { createContext, useContext } from 'react';
import type { Session } from './types';

/** What the window shows: one or more sessions as tabs, under a heading for when there are none. */
export interface ChatWindowRequest {
  title: string;
  image?: string;
  sessions: Session[];
  /** The post whose chats these are, when its owner opened them: a chat about it that begins
   * while the window is open joins the tabs. */
  itemId?: string;
  /** The chat shown first, when not the first (a window opened again after a reload). */
  activeId?: string;
  /** Reads the sessions again. The window calls it once it listens for new chats: one begun
   * between the opener's read and that moment would otherwise never show. */
  reload?: () => Promise<Session[]>;
  /** The message (its created_at) the chat shown first opens at, rather than its newest or first unread. */
  at?: number;
}

export interface ChatWindowControls {
  openChat: (request: ChatWindowRequest) => void;
  /** Whether the window shows now (opened and not minimized): a page may make room for it. */
  windowShown: boolean;
}

export const ChatContext = createContext<ChatWindowControls | null>(null);

export function useChatWindow(): ChatWindowControls {
  const controls = useContext(ChatContext);
  if (!controls) throw new Error('useChatWindow must be used inside <ChatProvider>');
  return controls;
}
