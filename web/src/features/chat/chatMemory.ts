import { appEvents } from '../../shared/events';
import { readStored, removeStored, writeStored } from '../../shared/storage';
import type { ChatWindowRequest } from '../../shared/chat/chatContext';
import type { Session } from '../../shared/chat/types';

/**
 * What a tab's chat keeps across a reload, as chat apps do: the open window (which chats, the
 * one shown, minimized or not) and each chat's unsent text. Kept in sessionStorage: this tab
 * only, gone when it closes, and forgotten when the account changes, so nothing one person
 * wrote waits in the browser for the next.
 */
const WINDOW_KEY = 'agora.chat.window';
const DRAFTS_KEY = 'agora.chat.drafts';

export interface RememberedWindow {
  title: string;
  image?: string;
  /** As they were shown: read again on the way back, but a chat not begun yet (a dummy) exists only here. */
  sessions: Session[];
  activeId: string | null;
  itemId?: string;
  minimized: boolean;
}

appEvents.on('auth_changed', () => {
  removeStored(WINDOW_KEY, 'session');
  removeStored(DRAFTS_KEY, 'session');
});

function readJson(key: string): unknown {
  try {
    return JSON.parse(readStored(key, 'session') ?? 'null');
  } catch {
    // A value of another shape is as good as none.
    return null;
  }
}

function isRememberedWindow(value: unknown): value is RememberedWindow {
  const entry = value as RememberedWindow | null;
  return typeof entry?.title === 'string' && Array.isArray(entry.sessions) && entry.sessions.every((session) => typeof session?._id === 'string');
}

/** Whether this page load reloaded the tab's page, rather than followed a link or an address typed. */
function reloaded(): boolean {
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return entry?.type === 'reload';
}

/**
 * The window as it was when the tab was last left (null when it was closed), after a reload
 * only: a page reached by a link or an address typed opens as itself, not under a chat (which
 * covers a phone's whole screen), and the window is forgotten there (a later reload of that
 * page finds none); the chats' drafts stay for when they are opened.
 */
export function rememberedWindow(): RememberedWindow | null {
  if (reloaded()) return storedWindow();
  forgetWindow();
  return null;
}

function storedWindow(): RememberedWindow | null {
  const value = readJson(WINDOW_KEY);
  return isRememberedWindow(value) ? value : null;
}

/** The window just opened on `request`, or changed (`changes`: minimized, the chat shown). */
export function rememberWindow(request: ChatWindowRequest, changes: Partial<Pick<RememberedWindow, 'activeId' | 'minimized'>> = {}): void {
  const entry: RememberedWindow = {
    title: request.title,
    image: request.image,
    sessions: request.sessions,
    activeId: request.activeId ?? null,
    itemId: request.itemId,
    minimized: false,
    ...changes,
  };
  writeStored(WINDOW_KEY, JSON.stringify(entry), 'session');
}

/** The open window changed: which chat it shows, or whether it is minimized. */
export function rememberWindowChange(changes: Partial<Pick<RememberedWindow, 'activeId' | 'minimized'>>): void {
  const current = storedWindow();
  if (current) writeStored(WINDOW_KEY, JSON.stringify({ ...current, ...changes }), 'session');
}

export function forgetWindow(): void {
  removeStored(WINDOW_KEY, 'session');
}

function drafts(): Record<string, string> {
  const value = readJson(DRAFTS_KEY);
  return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {};
}

/** What was typed in the chat and not sent yet. */
export function readDraft(sessionId: string): string {
  const text = drafts()[sessionId];
  return typeof text === 'string' ? text : '';
}

/** Keeps what is typed in the chat; an empty box (a message sent) leaves nothing. */
export function writeDraft(sessionId: string, text: string): void {
  const { [sessionId]: _previous, ...others } = drafts();
  const next = text ? { ...others, [sessionId]: text } : others;
  if (Object.keys(next).length === 0) removeStored(DRAFTS_KEY, 'session');
  else writeStored(DRAFTS_KEY, JSON.stringify(next), 'session');
}
