import { api } from '../api';
import { LOOKUP_BATCH_MS, LOOKUP_CACHE_MAX_KEYS, STORAGE_KEYS } from '../constants';
import { readStored, writeStored } from '../storage';
import type { ChatUser, Session } from './types';

interface Found {
  users: ChatUser;
  sessions: Session;
}
type Kind = keyof Found;
const REQUEST_FIELDS: Record<Kind, string> = { users: 'user_ids', sessions: 'session_ids' };

type LookupRequest = Partial<Record<string, string[]>>;
type LookupReply = { [K in Kind]?: Record<string, Found[K]> };
type Waiter = (found: unknown) => void;

/**
 * Collects the ids asked for within the batch delay into one /get_by_ids call. Users are
 * kept (in local storage, under the spec's cache name) so a name is fetched once; sessions
 * change with every message, so they are always asked for.
 */
export function createLookup(
  fetchBatch: (request: LookupRequest) => Promise<LookupReply> = (request) => api.post('/get_by_ids', request),
) {
  const users = new Map<string, ChatUser>(Object.entries(readCache()));
  let queued: Record<Kind, Map<string, Waiter[]>> = { users: new Map(), sessions: new Map() };
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush() {
    timer = null;
    const batch = queued;
    queued = { users: new Map(), sessions: new Map() };
    const kinds = (Object.keys(batch) as Kind[]).filter((kind) => batch[kind].size > 0);
    const request = Object.fromEntries(kinds.map((kind) => [REQUEST_FIELDS[kind], [...batch[kind].keys()]]));
    const settle = (reply: LookupReply) => {
      for (const kind of kinds) {
        for (const [id, waiters] of batch[kind]) {
          const found = reply[kind]?.[id] ?? null;
          if (kind === 'users' && found) users.set(id, found as ChatUser);
          waiters.forEach((resolve) => resolve(found));
        }
      }
      writeCache(users);
    };
    // A failed lookup leaves the id unknown; the next request for it tries again.
    fetchBatch(request).then(settle, () => settle({}));
  }

  return function lookup<K extends Kind>(kind: K, id: string): Promise<Found[K] | null> {
    const known = kind === 'users' ? users.get(id) : undefined;
    if (known) return Promise.resolve(known as Found[K]);
    return new Promise((resolve) => {
      const waiting = queued[kind];
      waiting.set(id, [...(waiting.get(id) ?? []), resolve as Waiter]);
      timer ??= setTimeout(flush, LOOKUP_BATCH_MS);
    });
  };
}

function readCache(): Record<string, ChatUser> {
  try {
    return JSON.parse(readStored(STORAGE_KEYS.lookupCache) ?? '{}') as Record<string, ChatUser>;
  } catch {
    return {};
  }
}

function writeCache(cache: Map<string, ChatUser>): void {
  // Oldest entries go first: a Map iterates in insertion order.
  const entries = [...cache.entries()].slice(-LOOKUP_CACHE_MAX_KEYS);
  writeStored(STORAGE_KEYS.lookupCache, JSON.stringify(Object.fromEntries(entries)));
}

const lookup = createLookup();
export const lookupUser = (id: string) => lookup('users', id);
export const lookupSession = (id: string) => lookup('sessions', id);
