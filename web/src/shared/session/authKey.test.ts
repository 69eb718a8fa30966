import { describe, expect, it, vi } from 'vitest';
import { appEvents } from '../events';
import {
  clearAuthKey,
  consumeAuthKeyParam,
  dismissPendingAuthKey,
  getAuthKey,
  pendingAuthKey,
  setAuthKey,
  switchToPendingAuthKey,
} from './authKey';

describe('consumeAuthKeyParam', () => {
  it('stores the key as a cookie and reloads without the param', () => {
    const reload = vi.fn();
    expect(consumeAuthKeyParam('http://agora.test/profile?auth_key=abc%2B1&can_withdraw=1#top', reload)).toBe(true);
    expect(reload).toHaveBeenCalledWith('http://agora.test/profile?can_withdraw=1#top');
    expect(document.cookie).toContain('auth_key=abc%2B1');
    expect(getAuthKey()).toBe('abc+1');
    expect(pendingAuthKey()).toBeNull();
  });

  it('never replaces the signed-in account: a different key waits for the person to agree', () => {
    localStorage.setItem('agora.auth_key', 'mine');
    const reload = vi.fn();
    expect(consumeAuthKeyParam('http://agora.test/chat?auth_key=theirs', reload)).toBe(true);
    expect(reload).toHaveBeenCalledWith('http://agora.test/chat');
    expect(getAuthKey()).toBe('mine');
    expect(pendingAuthKey()).toBe('theirs');

    dismissPendingAuthKey();
    expect(pendingAuthKey()).toBeNull();
    expect(getAuthKey()).toBe('mine');
  });

  it('switches to the pending key only when asked to', () => {
    localStorage.setItem('agora.auth_key', 'mine');
    consumeAuthKeyParam('http://agora.test/?auth_key=theirs', vi.fn());
    switchToPendingAuthKey();
    expect(getAuthKey()).toBe('theirs');
    expect(pendingAuthKey()).toBeNull();
  });

  it('keeps the same key without asking', () => {
    localStorage.setItem('agora.auth_key', 'mine');
    consumeAuthKeyParam('http://agora.test/?auth_key=mine', vi.fn());
    expect(pendingAuthKey()).toBeNull();
    expect(getAuthKey()).toBe('mine');
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
