import { api } from '../../shared/api';
import { MODERATION_ACTIONS, SEND_FAILED_TYPE, SEND_OK_TYPE } from '../../shared/constants';
import type { ErrorsValue } from '../../shared/errors';
import type { Item, ItemFile } from '../../shared/entities/item';
import type { BusinessChatData, WaInfo, WaMessageData } from '../whatsapp/whatsappApi';

export interface Session {
  _id: string;
  title: string;
  description: string;
  image: string;
  files: ItemFile[];
  is_public: boolean;
  is_read_allowed: boolean;
  write_permission: number;
  created_at: number;
  is_inactive: boolean;
  /** Not stored yet: the first message sent makes it real. */
  is_dummy: boolean;
  /** The viewer's membership type, null when not a member. */
  session_user_type: number | null;
  can_send: boolean;
  /** The viewer's notification flag; null when not a member. */
  notification_flag: number | null;
  /** "business" for a WhatsApp business chat; absent on older servers' sessions. */
  kind?: string;
  /**
   * Item chats carry the post, its owner and the member who asked (`user_id`), and whether the post was deleted;
   * business chats their customer and reply window (`whatsapp`).
   */
  data: { item_id?: string; owner_id?: string; user_id?: string; tags?: string[]; item_deleted?: boolean; whatsapp?: BusinessChatData };
  unseen_count: number;
  updated_at: number;
  last_message?: InboxMessage;
}

export interface ChatEntry {
  session: Session;
  item: Item;
  is_item_owner: boolean;
  is_user_in_session: boolean;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read';

export interface InboxMessage {
  id: string;
  dest_session_id: string;
  src_id: string;
  local_id: string;
  created_at: number;
  type: number;
  payload: string;
  payload1: ItemFile[];
  flags: { status?: DeliveryStatus };
  data: MessageData;
  /** A business message's WhatsApp flags. */
  info?: WaInfo;
}

/** `data` of a message; a chat message may share a place, a business message carries WhatsApp's fields. */
export interface MessageData extends WaMessageData {
  [key: string]: unknown;
}

export interface ChatUser {
  _id: string;
  name: string;
  image: string;
}

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
  | { type: typeof SEND_FAILED_TYPE; errors: ErrorsValue };

export interface MessagesPage {
  inbox_messages: InboxMessage[];
  refs: { users: Record<string, ChatUser> };
  has_more: boolean;
  next_less_than_timestamp: number | null;
}

export interface ChatsPage {
  sessions: Session[];
  cursor: string | null;
  has_more: boolean;
}

export interface SessionUser {
  session_id: string;
  user_id: string;
  session_user_type: number;
  notification_flag: number;
  user: ChatUser;
  data: { app?: unknown };
}

export interface SessionUsersPage {
  session_users: SessionUser[];
  has_more: boolean;
  cursor: string | null;
  session_users_count: number;
}

/** What a moderator may do to a member, as the server names it. */
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface SessionUserReply {
  is_user_in_session: boolean;
  session_user: SessionUser;
}

/** Who received and who read a message; `at` is null when that time is no longer kept. */
export interface MessageInfo {
  delivered: Array<{ user_id: string; at: number | null }>;
  read: Array<{ user_id: string; at: number | null }>;
  /** A business message's flags, when it has any. */
  whatsapp?: WaInfo;
}

export interface UrlPreview {
  image: string;
  title: string;
  description: string;
}

export type SessionChanges = Partial<Pick<Session, 'title' | 'description' | 'image' | 'is_public' | 'is_read_allowed'>>;

/** The chats about an item: all of them for its owner, else the viewer's own one (maybe a dummy). */
export function fetchItemChats(itemId: string, routeId: string): Promise<{ item: Item; chats: ChatEntry[] }> {
  return api.post(`/api/chats/${encodeURIComponent(itemId)}`, { route_id: routeId });
}

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

export function fetchUserChats(cursor?: string, signal?: AbortSignal): Promise<ChatsPage> {
  return api.post('/user/chats', { cursor }, { signal });
}

export function updateSession(sessionId: string, changes: SessionChanges): Promise<{ session: Session }> {
  return api.post('/session/update', { session_id: sessionId, ...changes });
}

export function setNotificationFlag(sessionId: string, notificationFlag: number): Promise<SessionUserReply> {
  return api.post('/session/user/update', { session_id: sessionId, notification_flag: notificationFlag });
}

export function moderate(sessionId: string, forUserId: string, action: ModerationAction): Promise<SessionUserReply> {
  return api.post('/session/user/update', { session_id: sessionId, for_user_id: forUserId, action });
}

export function fetchSessionUsers(sessionId: string, cursor?: string): Promise<SessionUsersPage> {
  return api.post('/session/users', { session_id: sessionId, cursor });
}

export function fetchMessageInfo(sessionId: string, createdAt: number): Promise<{ info: MessageInfo }> {
  return api.get('/session/im_info', { session_id: sessionId, created_at: createdAt });
}

export function fetchUrlPreview(url: string): Promise<UrlPreview> {
  return api.get('/url_preview', { url });
}
