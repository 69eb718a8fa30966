import { describe, expect, it } from 'vitest';
import { MEMBER_TYPES } from '../../shared/constants';
import { MESSAGE_TYPES } from './constants';
import { countdownText, durationText, lastOwnSend, sendableAt, slowModeText } from './slowMode';

describe('slow mode', () => {
  it('is written as the settings offer it', () => {
    expect([10, 30, 60, 300, 900, 3600].map(durationText)).toEqual(['10 s', '30 s', '1 min', '5 min', '15 min', '1 h']);
    expect(slowModeText({ slow_mode_seconds: 30 })).toBe('Slow mode: 30 s');
    expect(slowModeText({ slow_mode_seconds: 0 })).toBeNull();
    expect(slowModeText({})).toBeNull();
  });

  it('holds a member back from their last message for its seconds, never a moderator', () => {
    const member = { slow_mode_seconds: 30, session_user_type: MEMBER_TYPES.member };
    expect(sendableAt(member, 1_000)).toBe(31_000);
    expect(sendableAt(member, null)).toBeNull();
    expect(sendableAt({ ...member, session_user_type: MEMBER_TYPES.moderator }, 1_000)).toBeNull();
    expect(sendableAt({ ...member, slow_mode_seconds: 0 }, 1_000)).toBeNull();
  });

  it('finds the viewer’s own latest message, not a notice of their joining', () => {
    const messages = [
      { src_id: 'me', created_at: 5, type: MESSAGE_TYPES.chat },
      { src_id: 'other', created_at: 9, type: MESSAGE_TYPES.chat },
      { src_id: 'me', created_at: 7, type: MESSAGE_TYPES.banner },
      { src_id: 'me', created_at: 8, type: MESSAGE_TYPES.notice },
    ];
    expect(lastOwnSend(messages, 'me')).toBe(7);
    expect(lastOwnSend(messages, 'nobody')).toBeNull();
  });

  it('counts down in whole seconds, then minutes and hours', () => {
    expect(countdownText(25_000)).toBe('25s');
    expect(countdownText(24_001)).toBe('25s');
    expect(countdownText(65_000)).toBe('1:05');
    expect(countdownText(3_600_000)).toBe('1:00:00');
    expect(countdownText(-5)).toBe('0s');
  });
});
