import type { InboxMessage } from '../../shared/chat/types';
import { MENTION_COUNT_MAX } from './constants';
import { appEvents } from '../../shared/events';
import { mentionsMe } from './mentions';

/**
 * Unseen messages as this screen works them out. The server sends one `message` event per
 * message to a chat's room (never a count per member), so the screen counts for itself:
 * a message of someone else in a chat it is not showing raises that chat's badge, and the
 * red dot on Chats unless the chat is muted and the message does not mention the viewer
 * (muted means "only mentions", as for pushes). Exact counts come from the server when the
 * socket (re)connects and when Chats opens.
 */

export type UnseenChange =
  /** Another's message arrived in a chat this screen is not showing (`mentionsMe`: it mentions the viewer). */
  | { kind: 'unseen'; message: InboxMessage; raisesDot: boolean; mentionsMe?: boolean }
  /** The chat is on screen now: whatever it had is read. */
  | { kind: 'viewed'; sessionId: string }
  /** A message that counts for no badge (one's own, or in a chat on screen) is still a chat's newest. */
  | { kind: 'latest'; message: InboxMessage };

export interface UnseenSummary {
  notifications_unseen_count: number;
  muted_session_ids: string[];
}

type Listener = (change: UnseenChange) => void;

const RECENT_IDS_MAX = 500;

const muted = new Set<string>();
const viewing = new Map<string, number>();
const listeners = new Set<Listener>();
// A message can reach a screen twice (a reconnect's replay, two rooms); it counts once.
const counted = new Set<string>();

// Another account's mutes and counts are not this one's.
appEvents.on('auth_changed', () => {
  muted.clear();
  counted.clear();
});

function emit(change: UnseenChange): void {
  listeners.forEach((listener) => listener(change));
}

export function onUnseenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The server's muted chats, as reported when the socket connects. */
export function applySummary(summary: UnseenSummary): void {
  muted.clear();
  summary.muted_session_ids.forEach((id) => muted.add(id));
}

export function setMuted(sessionId: string, isMuted: boolean): void {
  if (isMuted) muted.add(sessionId);
  else muted.delete(sessionId);
}

/** While a chat is on screen its messages are read as they come. Returns the undo. */
export function showing(sessionId: string): () => void {
  viewing.set(sessionId, (viewing.get(sessionId) ?? 0) + 1);
  emit({ kind: 'viewed', sessionId });
  return () => {
    const left = (viewing.get(sessionId) ?? 1) - 1;
    if (left > 0) viewing.set(sessionId, left);
    else viewing.delete(sessionId);
  };
}

/** Counts a message from the socket; says whether it raised the red dot. */
export function received(message: InboxMessage, meId: string | null): boolean {
  if (counted.has(message.id)) return false;
  if (message.src_id === meId || viewing.has(message.dest_session_id)) {
    emit({ kind: 'latest', message });
    return false;
  }
  counted.add(message.id);
  if (counted.size > RECENT_IDS_MAX) counted.delete(counted.values().next().value as string);
  const mentioned = mentionsMe(message, meId);
  const raisesDot = mentioned || !muted.has(message.dest_session_id);
  emit({ kind: 'unseen', message, raisesDot, mentionsMe: mentioned });
  return raisesDot;
}

/**
 * A shown list of chats after a change: another's message raises its chat's badge (and, in
 * a list ordered by activity, moves it to the top); a chat on screen has none. Every message
 * becomes its chat's last message, as on the server's list.
 */
export function applyToList<T extends { _id: string; unseen_count: number; mention_count?: number; updated_at: number; last_message?: InboxMessage }>(
  sessions: T[],
  change: UnseenChange,
  byActivity: boolean,
): T[] {
  if (change.kind === 'viewed') {
    return sessions.map((entry) => (entry._id === change.sessionId && (entry.unseen_count || entry.mention_count) ? { ...entry, unseen_count: 0, mention_count: 0 } : entry));
  }
  const { message } = change;
  const index = sessions.findIndex((entry) => entry._id === message.dest_session_id);
  if (index < 0) return sessions;
  const current = sessions[index] as T;
  const updated = {
    ...current,
    unseen_count: current.unseen_count + (change.kind === 'unseen' ? 1 : 0),
    // Mentions count as the server counts them (it keeps MENTION_COUNT_MAX per member).
    ...(change.kind === 'unseen' && change.mentionsMe ? { mention_count: Math.min(MENTION_COUNT_MAX, (current.mention_count ?? 0) + 1) } : {}),
    updated_at: Math.max(current.updated_at, message.created_at),
    last_message: message,
  };
  if (!byActivity) return sessions.map((entry, at) => (at === index ? updated : entry));
  return [updated, ...sessions.slice(0, index), ...sessions.slice(index + 1)];
}
