import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENTS_TEXT, PASTE_ONE_FILE_TEXT } from './constants';
import type { Session } from '../../shared/chat/types';
import { attachmentLimitError, canMakePublic, canSubmit, isMuted } from './rules';

describe('mute', () => {
  it('reads flags above 20 as muted', () => {
    expect([null, 20, 30].map(isMuted)).toEqual([false, false, true]);
  });
});

describe('attachments', () => {
  it('takes one pasted file at a time', () => {
    expect(attachmentLimitError(0, 2, true)).toBe(PASTE_ONE_FILE_TEXT);
    expect(attachmentLimitError(0, 1, true)).toBeNull();
  });

  it('allows at most 3 files per message', () => {
    expect(attachmentLimitError(2, 1, false)).toBeNull();
    expect(attachmentLimitError(3, 1, true)).toBe(MAX_ATTACHMENTS_TEXT);
    expect(attachmentLimitError(1, 3, false)).toBe(MAX_ATTACHMENTS_TEXT);
  });

  it('needs text or a file, and waits for uploads', () => {
    expect(canSubmit('  ', 0, false)).toBe(false);
    expect(canSubmit('hi', 0, false)).toBe(true);
    expect(canSubmit('', 1, false)).toBe(true);
    expect(canSubmit('hi', 1, true)).toBe(false);
  });
});

describe('making a chat public', () => {
  const session = (fields: Partial<Session>) =>
    ({ is_public: false, is_read_allowed: false, is_inactive: false, session_user_type: 10, ...fields }) as Session;

  it('is offered to owners of a locked, active chat only', () => {
    expect(canMakePublic(session({}))).toBe(true);
    expect(canMakePublic(session({ is_read_allowed: true }))).toBe(false);
    expect(canMakePublic(session({ is_public: true }))).toBe(false);
    expect(canMakePublic(session({ is_inactive: true }))).toBe(false);
    expect(canMakePublic(session({ session_user_type: 20 }))).toBe(false);
    expect(canMakePublic(session({ session_user_type: null }))).toBe(false);
  });
});
