import { describe, expect, it } from 'vitest';
import { MEMBER_TYPES } from '../../shared/constants';
import { MESSAGE_DELETED_TEXT, MESSAGE_EDIT_WINDOW_MS, MESSAGE_TYPES } from './constants';
import type { ChatMessage, InboxMessage, Session } from '../../shared/chat/types';
import { canDelete, canEdit, canPin, pinsAfterUpdate } from './messageChanges';
import { messagePreview } from './messages';

const SENT = 1_700_000_000_000;

function message(fields: Partial<ChatMessage> = {}): ChatMessage {
  return { id: 'm1', dest_session_id: 'g1', src_id: 'ann', local_id: 'l1', created_at: SENT, type: MESSAGE_TYPES.chat, payload: 'hi', payload1: [], flags: {}, data: {}, ...fields };
}

function session(fields: Partial<Session> = {}): Session {
  return {
    _id: 'g1', title: 'Club', description: '', image: '', files: [], is_public: false, is_read_allowed: false, write_permission: 20, created_at: 0,
    is_inactive: false, is_dummy: false, session_user_type: MEMBER_TYPES.member, can_send: true, notification_flag: 20, data: {}, unseen_count: 0, updated_at: 0,
    ...fields,
  };
}

describe('editing', () => {
  it('is the sender’s, for text messages, within the window', () => {
    expect(canEdit(message(), 'ann', session(), SENT + MESSAGE_EDIT_WINDOW_MS)).toBe(true);
    expect(canEdit(message(), 'ann', session(), SENT + MESSAGE_EDIT_WINDOW_MS + 1)).toBe(false);
    expect(canEdit(message(), 'bob', session({ session_user_type: MEMBER_TYPES.admin }), SENT)).toBe(false);
    expect(canEdit(message({ payload: '' }), 'ann', session(), SENT)).toBe(false);
    expect(canEdit(message({ deleted_at: SENT }), 'ann', session(), SENT)).toBe(false);
    expect(canEdit(message({ local: 'sending' }), 'ann', session(), SENT)).toBe(false);
    expect(canEdit(message(), 'ann', session({ can_send: false }), SENT)).toBe(false);
  });
});

describe('deleting', () => {
  it('is the sender’s, and a group’s moderators’ for others’ messages', () => {
    expect(canDelete(message(), 'ann', session())).toBe(true);
    expect(canDelete(message(), 'bob', session())).toBe(false);
    expect(canDelete(message(), 'bob', session({ session_user_type: MEMBER_TYPES.moderator }))).toBe(true);
    // In an item chat the poster moderates no one.
    expect(canDelete(message(), 'bob', session({ _id: 'r_item_ann', session_user_type: MEMBER_TYPES.admin }))).toBe(false);
    expect(canDelete(message({ type: MESSAGE_TYPES.notice }), 'bob', session({ session_user_type: MEMBER_TYPES.admin }))).toBe(false);
  });
});

describe('pinning', () => {
  it('is a group’s moderators’, and both sides’ of an item chat', () => {
    expect(canPin(message(), session())).toBe(false);
    expect(canPin(message(), session({ session_user_type: MEMBER_TYPES.moderator }))).toBe(true);
    expect(canPin(message(), session({ _id: 'r_item_ann' }))).toBe(true);
    expect(canPin(message(), session({ _id: 'r_item_ann', can_send: false }))).toBe(false);
    expect(canPin(message({ deleted_at: SENT }), session({ session_user_type: MEMBER_TYPES.admin }))).toBe(false);
  });

  it('follows message updates: a new list, an edited pin, a deleted one gone', () => {
    const first = message({ id: 'p1' }) as InboxMessage;
    const second = message({ id: 'p2', created_at: SENT + 1 }) as InboxMessage;
    expect(pinsAfterUpdate([first], { message: second, pins: [second, first] })).toEqual([second, first]);
    expect(pinsAfterUpdate([first, second], { message: { ...first, payload: 'new' } })[0]?.payload).toBe('new');
    expect(pinsAfterUpdate([first, second], { message: { ...first, deleted_at: SENT } })).toEqual([second]);
  });
});

describe('a deleted message', () => {
  it('shows as deleted wherever it is previewed (a reply’s quote, the chat list)', () => {
    expect(messagePreview(message({ payload: '', deleted_at: SENT }))).toBe(MESSAGE_DELETED_TEXT);
  });
});
