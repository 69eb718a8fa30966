import { api } from '../../shared/api';
import { ITEM_CHAT_PREFIX } from '../../shared/constants';
import { MESSAGE_EDIT_WINDOW_MS, MESSAGE_TYPES } from './constants';
import { isModerator } from '../../shared/chat/members';
import type { ChatMessage, InboxMessage, Session } from '../../shared/chat/types';

/** Members' own words: what may be edited, deleted (notices and WhatsApp's messages stay). */
const CHANGEABLE_TYPES: readonly number[] = [MESSAGE_TYPES.chat, MESSAGE_TYPES.banner];

function isGroup(session: Session): boolean {
  return !session._id.startsWith(ITEM_CHAT_PREFIX) && !session.kind;
}

function changeable(message: ChatMessage): boolean {
  return !message.local && !message.deleted_at && CHANGEABLE_TYPES.includes(message.type);
}

/** Its sender edits a message with text, within the window after it was sent (the server decides again). */
export function canEdit(message: ChatMessage, meId: string | null, session: Session, now = Date.now()): boolean {
  return changeable(message) && session.can_send && message.src_id === meId && message.payload !== '' && now - message.created_at <= MESSAGE_EDIT_WINDOW_MS;
}

/** Its sender deletes a message; a group's admins and moderators delete others' too. */
export function canDelete(message: ChatMessage, meId: string | null, session: Session): boolean {
  if (!changeable(message) || meId === null) return false;
  if (message.src_id === meId) return session.can_send;
  return isGroup(session) && isModerator(session.session_user_type);
}

/** A group's admins and moderators pin; in an item chat both sides (who may write there). */
export function canPin(message: ChatMessage, session: Session): boolean {
  if (message.local || message.deleted_at || session.kind) return false;
  return isGroup(session) ? isModerator(session.session_user_type) : session.can_send && session.session_user_type !== null;
}

/** The pins after a `message_update`: its list when it carries one, else the changed message in its place (gone once deleted). */
export function pinsAfterUpdate(pins: readonly InboxMessage[], update: { message: InboxMessage; pins?: InboxMessage[] }): InboxMessage[] {
  if (update.pins) return update.pins;
  if (update.message.deleted_at) return pins.filter((pin) => pin.id !== update.message.id);
  return pins.map((pin) => (pin.id === update.message.id ? update.message : pin));
}

export function editMessage(sessionId: string, createdAt: number, payload: string): Promise<{ message: InboxMessage }> {
  return api.post('/session/message/edit', { session_id: sessionId, created_at: createdAt, payload });
}

export function deleteMessage(sessionId: string, createdAt: number): Promise<{ message: InboxMessage }> {
  return api.post('/session/message/delete', { session_id: sessionId, created_at: createdAt });
}

export function pinMessage(sessionId: string, createdAt: number, pinned: boolean): Promise<{ pins: InboxMessage[] }> {
  return api.post('/session/pin', { session_id: sessionId, created_at: createdAt, pinned });
}

export function fetchPins(sessionId: string, signal?: AbortSignal): Promise<{ pins: InboxMessage[] }> {
  return api.get('/session/pins', { session_id: sessionId }, { signal });
}
