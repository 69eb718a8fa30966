import { CHAT_MAX_ATTACHMENTS, CHAT_OWNER_MAX_TYPE, MAX_ATTACHMENTS_TEXT, NOTIFY_UNMUTED_FLAG, PASTE_ONE_FILE_TEXT } from './constants';
import { ITEM_CHAT_PREFIX } from '../../shared/constants';
import type { Session } from '../../shared/chat/types';

/** Whether the chat is one of the post's item chats (their ids start with the post's). */
export function isChatAbout(sessionId: string, itemId: string): boolean {
  return sessionId.startsWith(`${ITEM_CHAT_PREFIX}${itemId}_`);
}

export function isMuted(notificationFlag: number | null): boolean {
  return (notificationFlag ?? NOTIFY_UNMUTED_FLAG) > NOTIFY_UNMUTED_FLAG;
}

/** A session that nobody outside can read shows a lock; a participant low enough may open it. */
export function isLocked(session: Session): boolean {
  return !session.is_public && !session.is_read_allowed;
}

export function canMakePublic(session: Session): boolean {
  const type = session.session_user_type;
  return isLocked(session) && !session.is_inactive && type !== null && type <= CHAT_OWNER_MAX_TYPE;
}

/** Why files cannot be added, or null when they can. A paste must bring exactly one file. */
export function attachmentLimitError(attached: number, adding: number, pasted: boolean): string | null {
  if (pasted && adding > 1) return PASTE_ONE_FILE_TEXT;
  if (attached + adding > CHAT_MAX_ATTACHMENTS) return MAX_ATTACHMENTS_TEXT;
  return null;
}

/** A message needs text or a file, and waits for running uploads. */
export function canSubmit(text: string, files: number, uploading: boolean): boolean {
  return !uploading && (text.trim() !== '' || files > 0);
}
