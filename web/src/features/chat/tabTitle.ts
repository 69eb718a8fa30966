import type { Session } from '../../shared/chat/types';

/** The other side of an item chat, seen from the item's owner; null for anyone else, whose only chat needs no tab. */
export function chatterId(session: Session, meId: string | null): string | null {
  if (!meId || session.data.owner_id !== meId) return null;
  return session.data.user_id ?? null;
}
