import { MENTION_ALL, MENTION_HERE, MENTIONS_MAX } from './constants';
import type { InboxMessage } from '../../shared/chat/types';

/** `@all` and `@here`: a group's admins and moderators mention every member with them. */
export const EVERYONE_MENTIONS = [MENTION_ALL, MENTION_HERE] as const;

/** What the caret is typing after an `@`: where the `@` is and the text after it. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** The longest name a picker query spans (names have spaces: "@Ravi Ku"). */
const QUERY_MAX = 40;

/**
 * The mention being typed at the caret: an `@` at the start or after a space, followed by
 * at most three words without another `@` or a line break, and not ending in a space; null
 * when the caret is elsewhere, or after a name already written (`written`: the names picked).
 */
export function mentionQueryAt(text: string, caret: number, written: Iterable<string> = []): MentionQuery | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('@');
  if (start < 0) return null;
  if (start > 0 && !/\s/.test(before[start - 1] ?? '')) return null;
  const query = before.slice(start + 1);
  if (query.length > QUERY_MAX || /[\n@]/.test(query) || /\s$/.test(query) || (query.match(/ /g)?.length ?? 0) > 2) return null;
  for (const name of written) if (query === name || query.startsWith(`${name} `)) return null;
  return { start, query };
}

/** People offered for a query: names holding it (any case), those starting with it (or a word of it) first. */
export function filterByName<T extends { name: string }>(people: T[], query: string, limit: number): T[] {
  const wanted = query.trim().toLocaleLowerCase();
  const starts = (name: string) => name.startsWith(wanted) || name.split(/\s+/).some((word) => word.startsWith(wanted));
  return people
    .map((person) => ({ person, name: person.name.toLocaleLowerCase() }))
    .filter(({ name }) => name.includes(wanted))
    .sort((a, b) => Number(!starts(a.name)) - Number(!starts(b.name)) || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(({ person }) => person);
}

/** The text with the typed `@query` replaced by `@Name `, and where the caret goes after it. */
export function insertMention(text: string, mention: MentionQuery, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  const after = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, mention.start) + inserted + after, caret: mention.start + inserted.length };
}

/**
 * What a message sends as `data.mentions`: the people picked whose `@Name` is still in the
 * text (an edit may have removed one), and `@all`/`@here` when written by someone who may.
 */
export function mentionsToSend(text: string, picked: ReadonlyMap<string, string>, mayMentionEveryone: boolean): string[] {
  const ids = [...picked].filter(([name]) => text.includes(`@${name}`)).map(([, id]) => id);
  const everyone = mayMentionEveryone ? EVERYONE_MENTIONS.filter((word) => new RegExp(`(^|\\s)@${word}\\b`).test(text)) : [];
  return [...new Set([...everyone, ...ids])].slice(0, MENTIONS_MAX);
}

export function mentionsOf(message: Pick<InboxMessage, 'data'>): string[] {
  const mentions = (message.data as { mentions?: unknown } | undefined)?.mentions;
  return Array.isArray(mentions) ? mentions.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Whether the message mentions the viewer: by name, or everyone (never their own message). */
export function mentionsMe(message: Pick<InboxMessage, 'data' | 'src_id'>, meId: string | null): boolean {
  if (!meId || message.src_id === meId) return false;
  return mentionsOf(message).some((entry) => entry === meId || (EVERYONE_MENTIONS as readonly string[]).includes(entry));
}

export interface TextPart {
  text: string;
  /** A mention in the text: of the viewer ("me"), or of someone else. */
  mention?: 'me' | 'other';
}

/**
 * The text cut where it mentions someone: `@Name` of each mentioned person (`names`: id ->
 * name), `@all` and `@here` when the message mentions everyone. The viewer's own mentions
 * (and everyone's) are "me".
 */
export function mentionParts(text: string, mentions: string[], names: Readonly<Record<string, string>>, meId: string | null): TextPart[] {
  const marked: { word: string; mine: boolean }[] = mentions.flatMap((entry) => {
    if ((EVERYONE_MENTIONS as readonly string[]).includes(entry)) return [{ word: `@${entry}`, mine: true }];
    const name = names[entry];
    return name ? [{ word: `@${name}`, mine: entry === meId }] : [];
  });
  if (marked.length === 0) return [{ text }];
  // Longest first, so "@Ravi Kumar" is not cut as "@Ravi".
  marked.sort((a, b) => b.word.length - a.word.length);
  const pattern = new RegExp(marked.map(({ word }) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const parts: TextPart[] = [];
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    const index = found.index ?? 0;
    if (index > at) parts.push({ text: text.slice(at, index) });
    const mine = marked.find(({ word }) => word === found[0])?.mine ?? false;
    parts.push({ text: found[0], mention: mine ? 'me' : 'other' });
    at = index + found[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/**
 * The viewer's unread mentions among the loaded messages, oldest first: the newest `count`
 * messages that mention them (`count`: the chat's mention_count when it opened).
 */
export function unreadMentions(messages: Pick<InboxMessage, 'data' | 'src_id' | 'created_at'>[], meId: string | null, count: number): number[] {
  if (count <= 0) return [];
  return messages
    .filter((message) => mentionsMe(message, meId))
    .map((message) => message.created_at)
    .slice(-count);
}
