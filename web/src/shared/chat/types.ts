import type { ErrorsValue } from '../errors';
import type { ItemFile } from '../entities/item';
import type { BusinessChatData, WaInfo, WaMessageData } from '../../features/whatsapp/whatsappApi';

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

/** Who received and who read a message; `at` is null when that time is no longer kept. */
export interface MessageInfo {
  delivered: Array<{ user_id: string; at: number | null }>;
  read: Array<{ user_id: string; at: number | null }>;
  /** A business message's flags, when it has any. */
  whatsapp?: WaInfo;
}

/** A message as the window holds it: from the server, or still local (sending or failed). */
export interface ChatMessage extends InboxMessage {
  local?: 'sending' | 'failed';
  errors?: ErrorsValue;
}

export type DeliveryIcon = 'pending' | 'sent' | 'delivered' | 'read' | 'not_sent' | 'error';

/** What a member sends: text, files, a kind (MESSAGE_TYPES) and `data` such as a shared place. */
export interface MessageDraft {
  text: string;
  files: ItemFile[];
  type: number;
  data: MessageData;
}
