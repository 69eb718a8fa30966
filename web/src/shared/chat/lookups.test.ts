import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOOKUP_BATCH_MS, STORAGE_KEYS } from '../constants';
import { createLookup } from './lookups';

const user = (id: string) => ({ _id: id, name: `User ${id}`, image: '' });

describe('user lookup', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('batches the ids asked for within 200 ms into one call, then serves users from the cache', async () => {
    const session = { _id: 's1', title: 'Chat' };
    const fetchBatch = vi.fn(async (request: { user_ids?: string[]; session_ids?: string[] }) => ({
      users: Object.fromEntries((request.user_ids ?? []).filter((id) => id !== 'gone').map((id) => [id, user(id)])),
      sessions: request.session_ids ? { s1: session } : {},
    }));
    const lookup = createLookup(fetchBatch as never);
    const first = lookup('users', 'a');
    await vi.advanceTimersByTimeAsync(LOOKUP_BATCH_MS - 1);
    const rest = [lookup('users', 'b'), lookup('users', 'a'), lookup('users', 'gone'), lookup('sessions', 's1')];
    expect(fetchBatch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);

    expect(await first).toEqual(user('a'));
    expect(await Promise.all(rest)).toEqual([user('b'), user('a'), null, session]);
    expect(fetchBatch).toHaveBeenCalledOnce();
    expect(fetchBatch).toHaveBeenCalledWith({ user_ids: ['a', 'b', 'gone'], session_ids: ['s1'] });

    expect(await lookup('users', 'b')).toEqual(user('b'));
    expect(fetchBatch).toHaveBeenCalledOnce();
    void lookup('sessions', 's1');
    await vi.advanceTimersByTimeAsync(LOOKUP_BATCH_MS);
    expect(fetchBatch).toHaveBeenCalledTimes(2);
    expect(Object.keys(JSON.parse(localStorage.getItem(STORAGE_KEYS.lookupCache) ?? '{}'))).toEqual(['a', 'b']);
  });

  it('starts from the stored cache', async () => {
    localStorage.setItem(STORAGE_KEYS.lookupCache, JSON.stringify({ a: user('a') }));
    const fetchBatch = vi.fn();
    expect(await createLookup(fetchBatch)('users', 'a')).toEqual(user('a'));
    expect(fetchBatch).not.toHaveBeenCalled();
  });
});
