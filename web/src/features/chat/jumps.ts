import type { ChatMessage, InboxMessage } from '../../shared/chat/types';
import type { MessagesPage } from './chatApi';

/** Older pages read, beyond the newest, to reach the first unread message of a chat that opens with many. */
export const UNREAD_PAGES_MAX = 4;

/** How long the message a chat opened at stays marked. */
export const HIGHLIGHT_MS = 2000;

/** Where the list scrolls to once: the first unread message (under its divider), a message asked for, or the newest. */
export interface Anchor {
  createdAt: number;
  kind: 'unread' | 'message' | 'present';
  /** Counts the jumps, so that jumping to the same message again scrolls again. */
  jump: number;
}

/** Whether newer messages than those shown are stored: the list does not reach the present. */
export interface Newer {
  hasMore: boolean;
  after: number | null;
  loading: boolean;
}

export const AT_PRESENT: Newer = { hasMore: false, after: null, loading: false };

/** The newer side of a page opened at a message (`around_timestamp`). */
export function newerOf(page: MessagesPage): Newer {
  return { hasMore: page.has_more_after ?? false, after: page.next_greater_than_timestamp ?? null, loading: false };
}

/**
 * The first of a chat's `unseen` newest messages among the stored ones shown (oldest first):
 * a chat's unseen count is how many messages came after its reader's mark. When fewer are
 * shown, the oldest shown; null when nothing is unseen.
 */
export function firstUnreadAt(messages: readonly ChatMessage[], unseen: number): number | null {
  const stored = messages.filter((message) => !message.local);
  if (unseen <= 0 || stored.length === 0) return null;
  return (stored[Math.max(0, stored.length - unseen)] as ChatMessage).created_at;
}

/** Whether the messages shown reach back to the first unread one, or no older are left to read for it. */
export function reachesFirstUnread(messages: readonly InboxMessage[], unseen: number, hasOlder: boolean): boolean {
  return !hasOlder || messages.length >= unseen;
}

/**
 * The newest page (`fetchPage(null)`), with older ones before it (`fetchPage(before)`) until it
 * reaches back to the first of the `unseen` newest messages, at most UNREAD_PAGES_MAX more:
 * one page, oldest first, whose older side is the oldest page read.
 */
export async function newestReachingUnread(fetchPage: (before: number | null) => Promise<MessagesPage>, unseen: number): Promise<MessagesPage> {
  let page = await fetchPage(null);
  for (let read = 0; read < UNREAD_PAGES_MAX && !reachesFirstUnread(page.inbox_messages, unseen, page.has_more); read++) {
    const older = await fetchPage(page.next_less_than_timestamp);
    page = { ...older, inbox_messages: [...older.inbox_messages, ...page.inbox_messages], refs: { users: { ...page.refs.users, ...older.refs.users } } };
  }
  return page;
}

export interface TextPart {
  text: string;
  match: boolean;
}

/** Letters compared as a search matches them: any case, any accent. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A result's text in parts, the whole words searched for (`words`, as the server matched them)
 * marked, the rest as written.
 */
export function markedParts(text: string, words: readonly string[]): TextPart[] {
  const wanted = new Set(words.map(folded));
  const parts: TextPart[] = [];
  const add = (part: string, match: boolean) => {
    const last = parts.at(-1);
    if (last && last.match === match) last.text += part;
    else if (part) parts.push({ text: part, match });
  };
  // Words and what parts them, in turn (as the server's `\w+` splits them).
  for (const piece of text.split(/([\p{L}\p{N}\p{M}_]+)/u)) add(piece, wanted.has(folded(piece)));
  return parts;
}
