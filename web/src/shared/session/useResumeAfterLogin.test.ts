import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { dropPendingAction, openLogin } from './login';
import { useResumeAfterLogin } from './useResumeAfterLogin';

function resumer(name: string) {
  const action = vi.fn();
  const hook = renderHook(({ ready }) => useResumeAfterLogin(name, ready, action), { initialProps: { ready: false } });
  return { action, login: () => hook.rerender({ ready: true }), logout: () => hook.rerender({ ready: false }) };
}

describe('an action started by a visitor', () => {
  it('runs once the user is known, and only once', () => {
    openLogin('chat:i1');
    const chat = resumer('chat:i1');
    const share = resumer('share:r1');
    expect(chat.action).not.toHaveBeenCalled();
    chat.login();
    share.login();
    expect(chat.action).toHaveBeenCalledTimes(1);
    expect(share.action).not.toHaveBeenCalled();
    chat.logout();
    chat.login();
    expect(chat.action).toHaveBeenCalledTimes(1);
  });

  it('is dropped when the login dialog is closed without logging in', () => {
    openLogin('create:g1');
    dropPendingAction();
    const create = resumer('create:g1');
    create.login();
    expect(create.action).not.toHaveBeenCalled();
  });

  it('is replaced by the next one the visitor starts', () => {
    openLogin('chat:i1');
    openLogin('share:r1');
    const chat = resumer('chat:i1');
    const share = resumer('share:r1');
    chat.login();
    share.login();
    expect(chat.action).not.toHaveBeenCalled();
    expect(share.action).toHaveBeenCalledTimes(1);
  });
});
