import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { createApiClient } from '../../shared/api';
import { appEvents } from '../../shared/events';
import { getAuthKey } from '../../shared/session/authKey';
import { installAuthInterceptors } from './apiAuth';

describe('auth interceptors', () => {
  let uninstall = () => undefined as void;
  afterEach(() => uninstall());

  const client = () => {
    const api = createApiClient();
    uninstall = installAuthInterceptors(api);
    return api;
  };

  it('signs requests with the stored key', async () => {
    const calls = mockFetch(() => ({ body: {} }));
    localStorage.setItem('agora.auth_key', 'stored-key');
    document.cookie = 'auth_key=cookie-key; path=/';
    await client().get('/user/me');
    expect(calls[0]?.headers.Authorization).toBe('Bearer stored-key');
  });

  it('falls back to the auth_key cookie', async () => {
    const calls = mockFetch(() => ({ body: {} }));
    document.cookie = 'auth_key=cookie-key; path=/';
    await client().get('/user/me');
    expect(calls[0]?.headers.Authorization).toBe('Bearer cookie-key');
  });

  it('sends no Authorization header for visitors', async () => {
    const calls = mockFetch(() => ({ body: {} }));
    await client().get('/user/me');
    expect(calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('asks for a login on 401 and drops the refused key', async () => {
    mockFetch(() => ({ status: 401, body: { errors: 'Login needed', need_user: true } }));
    localStorage.setItem('agora.auth_key', 'expired');
    const needUser = vi.fn();
    const off = appEvents.on('need_user', needUser);
    await expect(client().get('/api/user/profile')).rejects.toMatchObject({ status: 401 });
    off();
    expect(needUser).toHaveBeenCalledOnce();
    expect(getAuthKey()).toBeNull();
  });

  it('leaves other failures to the caller', async () => {
    mockFetch(() => ({ status: 403, body: { errors: 'Not allowed' } }));
    localStorage.setItem('agora.auth_key', 'valid');
    const needUser = vi.fn();
    const off = appEvents.on('need_user', needUser);
    await expect(client().get('/api/group')).rejects.toMatchObject({ status: 403 });
    off();
    expect(needUser).not.toHaveBeenCalled();
    expect(getAuthKey()).toBe('valid');
  });
});
