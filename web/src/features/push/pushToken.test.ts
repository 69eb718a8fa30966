import { beforeEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { forgetPushToken, syncPushToken } from './pushToken';

const SUBSCRIPTION = JSON.stringify({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } });

describe('sending the push subscription', () => {
  beforeEach(() => window.localStorage.clear());

  it('sends it once per user and subscription, and again after a logout', async () => {
    const calls = mockFetch(() => ({ body: { success: true } }));
    expect(await syncPushToken('u1', SUBSCRIPTION)).toBe(true);
    expect(calls[0]).toMatchObject({ method: 'POST', body: { push_token: SUBSCRIPTION, os_type: 'WEB_PUSH' } });
    expect(calls[0]?.url.pathname).toBe('/update_push_token');
    expect(await syncPushToken('u1', SUBSCRIPTION)).toBe(false);
    // Another account in this browser, or the same one after logging out, sends it again.
    expect(await syncPushToken('u2', SUBSCRIPTION)).toBe(true);
    forgetPushToken();
    expect(await syncPushToken('u2', SUBSCRIPTION)).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('remembers nothing when the server refused, so the next load tries again', async () => {
    const calls = mockFetch(() => ({ status: 503, body: { errors: 'down' } }));
    await expect(syncPushToken('u1', SUBSCRIPTION)).rejects.toMatchObject({ status: 503 });
    await expect(syncPushToken('u1', SUBSCRIPTION)).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(2);
  });

  it('sends nothing without a user or a subscription', async () => {
    const calls = mockFetch(() => ({ body: {} }));
    expect(await syncPushToken(null, SUBSCRIPTION)).toBe(false);
    expect(await syncPushToken('u1', null)).toBe(false);
    expect(calls).toHaveLength(0);
  });
});
