import { renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';

const guest = { _id: 'guest', name: 'Guest', is_guest: true };
const ada = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@example.com', data: { notifications_unseen_count: 0 }, created_at: 0 };

describe('current user', () => {
  beforeEach(() => vi.resetModules());

  it('calls GET /user/me once and shares the reply', async () => {
    let answer!: () => void;
    const calls = mockFetch(() => new Promise((resolve) => (answer = () => resolve({ body: { user: ada, guest_user: guest } }))));
    const { loadCurrentUser } = await import('./currentUser');
    const first = loadCurrentUser();
    const second = loadCurrentUser();
    answer();
    await expect(first).resolves.toEqual({ user: ada, guest_user: guest });
    await second;
    await loadCurrentUser();
    expect(calls.map((call) => call.url.pathname)).toEqual(['/user/me']);
  });

  it('asks again after the auth key changes', async () => {
    const calls = mockFetch(() => ({ body: { user: null, guest_user: guest } }));
    const { loadCurrentUser } = await import('./currentUser');
    const { setAuthKey } = await import('./authKey');
    await loadCurrentUser();
    setAuthKey('new-key');
    await loadCurrentUser();
    expect(calls).toHaveLength(2);
  });

  it('drops the answer to a request that a refresh overtook', async () => {
    const replies = [
      { body: { user: ada, guest_user: guest } },
      { body: { user: null, guest_user: guest } },
    ];
    const pending: Array<() => void> = [];
    mockFetch(() => {
      const reply = replies.shift()!;
      return new Promise((resolve) => pending.push(() => resolve(reply)));
    });
    const { loadCurrentUser, refreshCurrentUser, useCurrentUser } = await import('./currentUser');
    const stale = loadCurrentUser();
    const fresh = refreshCurrentUser();
    const { result } = renderHook(() => useCurrentUser());
    await waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!();
    await fresh;
    pending[0]!();
    await stale;
    expect(result.current).toMatchObject({ status: 'ready', user: null });
  });

  it('reports an unreachable server as an error state', async () => {
    mockFetch(() => ({ status: 503, text: 'down' }));
    const { loadCurrentUser, useCurrentUser } = await import('./currentUser');
    await expect(loadCurrentUser()).rejects.toMatchObject({ status: 503 });
    const { result } = renderHook(() => useCurrentUser());
    await waitFor(() => expect(result.current.status).toBe('error'));
  });
});
