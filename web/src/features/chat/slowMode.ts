import { MESSAGE_TYPES, SLOW_MODE_LABEL } from './constants';
import { isModerator } from '../../shared/chat/members';
import type { InboxMessage, Session } from '../../shared/chat/types';

/** A number of seconds as the settings and the header write it: "30 s", "5 min", "1 h". */
export function durationText(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** "Slow mode: 30 s" for a chat that has one; null otherwise. */
export function slowModeText(session: Pick<Session, 'slow_mode_seconds'>): string | null {
  const seconds = session.slow_mode_seconds ?? 0;
  return seconds > 0 ? `${SLOW_MODE_LABEL}: ${durationText(seconds)}` : null;
}

/**
 * When the viewer's own latest message was sent (the server's time; a local one's while it is
 * sent). Notices the server posts for them (their joining's) are not theirs: slow mode counts
 * only what members send.
 */
export function lastOwnSend(messages: Pick<InboxMessage, 'src_id' | 'created_at' | 'type'>[], meId: string | null): number | null {
  let last: number | null = null;
  for (const message of messages) {
    if (message.src_id !== meId || message.type === MESSAGE_TYPES.notice) continue;
    if (last === null || message.created_at > last) last = message.created_at;
  }
  return last;
}

/**
 * When the viewer may send again under the chat's slow mode (epoch ms), or null when they
 * may send now or are not slowed (no slow mode; admins and moderators).
 */
export function sendableAt(session: Pick<Session, 'slow_mode_seconds' | 'session_user_type'>, lastSent: number | null): number | null {
  const seconds = session.slow_mode_seconds ?? 0;
  if (seconds <= 0 || lastSent === null || isModerator(session.session_user_type)) return null;
  return lastSent + seconds * 1000;
}

/** The countdown that replaces Send: whole seconds left, "1:05" past a minute, "1:00:00" past an hour. */
export function countdownText(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  if (minutes > 0) return `${minutes}:${two(seconds)}`;
  return `${seconds}s`;
}
