import type { ErrorsValue } from '../errors';
import type { ItemFile } from '../entities/item';
import type { Place } from '../location/locationApi';

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
  /** The conversation kind a plug-in draws ("business" for a WhatsApp business chat); absent for plain chats. */
  kind?: string;
  /**
   * Item chats carry the post, its owner and the member who asked (`user_id`), and whether the post was deleted;
   * a plug-in's conversations carry fields of their own (see ConversationKind).
   */
  data: { item_id?: string; owner_id?: string; user_id?: string; tags?: string[]; item_deleted?: boolean; [field: string]: unknown };
  unseen_count: number;
  /** The viewer's unread messages that mention them (by name, or everyone); absent from older servers. */
  mention_count?: number;
  /** The least time between one member's messages in a group (0: off); admins and moderators are exempt. */
  slow_mode_seconds?: number;
  updated_at: number;
  last_message?: InboxMessage;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read';

/**
 * A message as the server sends it. `Data` is what its kind carries in `data`: the chat's own
 * kinds carry MessageData; a plug-in's kind (WhatsApp's) names its own type, extending it.
 */
export interface InboxMessage<Data extends MessageData = MessageData> {
  id: string;
  dest_session_id: string;
  src_id: string;
  local_id: string;
  created_at: number;
  type: number;
  payload: string;
  payload1: ItemFile[];
  flags: { status?: DeliveryStatus };
  data: Data;
  /** Delivery flags of a plug-in's message (a WhatsApp message's), which its MessageKind reads. */
  info?: object;
  /** When its sender last edited it. */
  edited_at?: number;
  /** When it was deleted: its content is gone. */
  deleted_at?: number;
  /** Who deleted it when not its sender. */
  deleted_by?: 'admin' | 'moderator';
}

/** What a message answers: the created_at of the message of the same chat. */
export interface ReplyContext {
  reply_to?: number;
}

/**
 * `data` as the chat reads it on any message: a chat message may share a place and answer
 * another, and any message may carry reactions. A plug-in's kind adds its own fields in a type
 * of its own, extending this one.
 */
export interface MessageData {
  location?: Place & { name?: string };
  context?: ReplyContext;
  /** Who reacted with which emoji, by sender id. */
  reactions?: Record<string, string>;
  /** The members it mentions by user id, or everyone ('all', 'here'). */
  mentions?: string[];
}

export interface ChatUser {
  _id: string;
  name: string;
  image: string;
}

/** Who received and who read a message; `at` is null when that time is no longer kept. */
export interface MessageInfo {
  delivered: Array<{ user_id: string; at: number | null }>;
  read: Array<{ user_id: string; at: number | null }>;
  /** What a plug-in's message kind adds (a business message's `whatsapp` flags). */
  [field: string]: unknown;
}

/** A message as the window holds it: from the server, or still local (sending or failed). */
export interface ChatMessage<Data extends MessageData = MessageData> extends InboxMessage<Data> {
  local?: 'sending' | 'failed';
  errors?: ErrorsValue;
}

export type DeliveryIcon = 'pending' | 'sent' | 'delivered' | 'read' | 'not_sent' | 'error';

/** What a member sends: text, files, a kind (MESSAGE_TYPES, or a plug-in's) and the `data` of that kind, such as a shared place. */
export interface MessageDraft<Data extends MessageData = MessageData> {
  text: string;
  files: ItemFile[];
  type: number;
  data: Data;
}
