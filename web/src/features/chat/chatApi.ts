import { api } from '../../shared/api';
import { SEND_FAILED_TYPE, SEND_OK_TYPE } from './constants';
import type { ErrorsValue } from '../../shared/errors';
import type { SessionUserReply, SessionUsersPage } from '../../shared/chat/members';
import type { ChatUser, InboxMessage, MessageData, MessageInfo, Session } from '../../shared/chat/types';

export interface SendBody {
  dest_session_id: string;
  payload: string;
  payload1: string[];
  _type: number;
  is_dummy_session: boolean;
  created_at: number;
  local_id: string;
  data: MessageData;
}

export type SendReply =
  | { type: typeof SEND_OK_TYPE; inbox_message: InboxMessage; new_session_created: boolean; is_user_in_session: boolean }
  | { type: typeof SEND_FAILED_TYPE; errors: ErrorsValue; retry_after_ms?: number };

export interface MessagesPage {
  inbox_messages: InboxMessage[];
  refs: { users: Record<string, ChatUser> };
  /** Older messages than these are stored. */
  has_more: boolean;
  next_less_than_timestamp: number | null;
  /** A page opened at a message (`around_timestamp`) says whether newer messages are stored too. */
  has_more_before?: boolean;
  has_more_after?: boolean;
  next_greater_than_timestamp?: number | null;
}

/** Messages holding every word searched for, newest first; `words` as the server matched them. */
export interface SearchPage {
  inbox_messages: InboxMessage[];
  refs: { users: Record<string, ChatUser> };
  words: string[];
  has_more: boolean;
  next_less_than_timestamp: number | null;
}

export interface ChatsPage {
  sessions: Session[];
  cursor: string | null;
  has_more: boolean;
}

export interface UrlPreview {
  image: string;
  title: string;
  description: string;
}

export type SessionChanges = Partial<Pick<Session, 'title' | 'description' | 'image' | 'is_public' | 'is_read_allowed' | 'slow_mode_seconds'>>;

/** A failed send is a reply of type -1, not an HTTP failure, so both end up in the reply. */
export function sendMessage(body: SendBody): Promise<SendReply> {
  return api.post('/session/send', body);
}

export function fetchMessages(
  sessionId: string,
  range: { greater_than_timestamp?: number; less_than_timestamp?: number } = {},
  signal?: AbortSignal,
): Promise<MessagesPage> {
  return api.post('/session/messages', { session_id: sessionId, ...range }, { signal });
}

/** The page a chat opens at one of its messages with: some before it, the rest from it on. */
export function fetchAround(sessionId: string, createdAt: number, signal?: AbortSignal): Promise<MessagesPage> {
  return api.post('/session/messages', { session_id: sessionId, around_timestamp: createdAt }, { signal });
}

export function searchChat(sessionId: string, q: string, before: number | null, signal?: AbortSignal): Promise<SearchPage> {
  return api.post('/session/search', { session_id: sessionId, q, less_than_timestamp: before }, { signal });
}

/** Every page of messages stored after `after` (epoch ms), oldest first, each handed to `add`. */
export async function fetchNewer(sessionId: string, after: number, add: (page: MessagesPage) => void): Promise<void> {
  for (let from = after; ; ) {
    const page = await fetchMessages(sessionId, { greater_than_timestamp: from });
    add(page);
    const last = page.inbox_messages.at(-1);
    if (!page.has_more || !last) return;
    from = last.created_at;
  }
}

export function fetchUserChats(cursor?: string, signal?: AbortSignal): Promise<ChatsPage> {
  return api.post('/user/chats', { cursor }, { signal });
}

export function updateSession(sessionId: string, changes: SessionChanges): Promise<{ session: Session }> {
  return api.post('/session/update', { session_id: sessionId, ...changes });
}

export function setNotificationFlag(sessionId: string, notificationFlag: number): Promise<SessionUserReply> {
  return api.post('/session/user/update', { session_id: sessionId, notification_flag: notificationFlag });
}

export function fetchMessageInfo(sessionId: string, createdAt: number): Promise<{ info: MessageInfo }> {
  return api.get('/session/im_info', { session_id: sessionId, created_at: createdAt });
}

export function fetchUrlPreview(url: string): Promise<UrlPreview> {
  return api.get('/url_preview', { url });
}

/** The chat's members who read it whose name holds `search` (the mention picker), or its first page of members. */
export function searchMembers(sessionId: string, search: string, signal?: AbortSignal): Promise<SessionUsersPage> {
  return api.post('/session/users', search ? { session_id: sessionId, search } : { session_id: sessionId }, { signal });
}
