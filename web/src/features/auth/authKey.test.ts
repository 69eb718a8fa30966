import { describe, expect, it, vi } from 'vitest';
import { appEvents } from '../../shared/events';
import { clearAuthKey, consumeAuthKeyParam, getAuthKey, setAuthKey } from './authKey';

describe('consumeAuthKeyParam', () => {
  it('stores the key as a cookie and reloads without the param', () => {
    localStorage.setItem('agora.auth_key', 'older-key');
    const reload = vi.fn();
    expect(consumeAuthKeyParam('http://agora.test/profile?auth_key=abc%2B1&can_withdraw=1#top', reload)).toBe(true);
    expect(reload).toHaveBeenCalledWith('http://agora.test/profile?can_withdraw=1#top');
    expect(document.cookie).toContain('auth_key=abc%2B1');
    expect(getAuthKey()).toBe('abc+1');
  });

  it('does nothing without the param', () => {
    const reload = vi.fn();
    expect(consumeAuthKeyParam('http://agora.test/profile?x=1', reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('auth key storage', () => {
  it('announces changes and clears both places', () => {
    const changed = vi.fn();
    const off = appEvents.on('auth_changed', changed);
    setAuthKey('k1');
    expect(getAuthKey()).toBe('k1');
    document.cookie = 'auth_key=k2; path=/';
    clearAuthKey();
    off();
    expect(getAuthKey()).toBeNull();
    expect(changed).toHaveBeenCalledTimes(2);
  });
});
