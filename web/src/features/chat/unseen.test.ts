import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../test/fakeSocket';
import { serve } from '../../test/standIns';
import { mockFetch } from '../../test/fetchMock';
import type { InboxMessage, Session } from '../../shared/chat/types';
import type { UnseenChange } from './unseen';

/** A connected socket whose server side the test plays: events in, `unseen` calls answered. */
const fakeSocket = new FakeSocket({ unseen: { notifications_unseen_count: 0, muted_session_ids: [] } });
serve({ socket: fakeSocket });

const me = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'a@x.test', data: { notifications_unseen_count: 9 }, created_at: 0 };

let sequence = 0;
const message = (sessionId: string, srcId = 'u2'): InboxMessage => ({
  id: `m${++sequence}`,
  dest_session_id: sessionId,
  src_id: srcId,
  local_id: `l${sequence}`,
  created_at: 1000 + sequence,
  type: 1003,
  payload: 'hi',
  payload1: [],
  flags: {},
  data: {},
});

const listed = (id: string, unseen = 0, updatedAt = 0) => ({ _id: id, unseen_count: unseen, updated_at: updatedAt });

async function signedIn() {
  mockFetch(() => ({ body: { user: me, guest_user: null } }));
  const currentUser = await import('../../shared/session/currentUser');
  await currentUser.loadCurrentUser();
  const { useUnseenSync } = await import('./useUnseenSync');
  renderHook(() => useUnseenSync(me._id));
  await act(async () => undefined);
  return { dot: () => currentUserCount(currentUser), unseen: await import('./unseen') };
}

function currentUserCount(module: typeof import('../../shared/session/currentUser')): number {
  let count = -1;
  module.updateCurrentUser((user) => {
    count = user.data.notifications_unseen_count;
    return user;
  });
  return count;
}

describe('unseen counts on this screen', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeSocket.reset();
    fakeSocket.answers.unseen = { notifications_unseen_count: 2, muted_session_ids: ['muted'] };
  });

  it('takes the exact count when the socket connects, then others’ messages raise the dot', async () => {
    const { dot } = await signedIn();
    expect(dot()).toBe(2);
    act(() => fakeSocket.serverSends('message', message('s1')));
    expect(dot()).toBe(3);
    // Several messages of a busy chat arrive in one frame.
    act(() => fakeSocket.serverSends('messages', [message('s1'), message('s2')]));
    expect(dot()).toBe(5);
  });

  it('does not count one’s own messages, muted chats, chats on screen or a message twice', async () => {
    const { dot, unseen } = await signedIn();
    const again = message('s1');
    act(() => {
      fakeSocket.serverSends('message', message('s1', me._id));
      fakeSocket.serverSends('message', message('muted'));
      fakeSocket.serverSends('message', again);
      fakeSocket.serverSends('message', again);
    });
    expect(dot()).toBe(3);
    const hide = unseen.showing('s1');
    act(() => fakeSocket.serverSends('message', message('s1')));
    expect(dot()).toBe(3);
    hide();
    unseen.setMuted('muted', false);
    act(() => fakeSocket.serverSends('message', message('muted')));
    expect(dot()).toBe(4);
  });

  it('counts a muted chat’s messages that mention the viewer, as muted means "only mentions"', async () => {
    const { dot } = await signedIn();
    act(() => {
      fakeSocket.serverSends('message', message('muted'));
      fakeSocket.serverSends('message', { ...message('muted'), data: { mentions: ['someone-else'] } });
      fakeSocket.serverSends('message', { ...message('muted'), data: { mentions: [me._id] } });
      fakeSocket.serverSends('message', { ...message('muted'), data: { mentions: ['all'] } });
    });
    expect(dot()).toBe(4);
  });

  it('asks again when a message arrives while the count is asked for, as the count may not hold it', async () => {
    const { dot } = await signedIn();
    delete fakeSocket.answers.unseen;
    act(() => fakeSocket.serverSends('connect', undefined));
    expect(fakeSocket.waiting('unseen')).toHaveLength(1);
    act(() => fakeSocket.serverSends('message', message('s1')));
    // The count was read before the message was stored: taken alone, the dot would be one short.
    act(() => fakeSocket.answer('unseen', { notifications_unseen_count: 2, muted_session_ids: [] }));
    expect(fakeSocket.waiting('unseen')).toHaveLength(1);
    act(() => fakeSocket.answer('unseen', { notifications_unseen_count: 3, muted_session_ids: [] }));
    expect(dot()).toBe(3);
    expect(fakeSocket.waiting('unseen')).toHaveLength(0);
  });

  it('follows the server when Chats is opened elsewhere, and again on reconnecting', async () => {
    const { dot } = await signedIn();
    act(() => fakeSocket.serverSends('unseen', { notifications_unseen_count: 0 }));
    expect(dot()).toBe(0);
    fakeSocket.answers.unseen = { notifications_unseen_count: 7, muted_session_ids: [] };
    act(() => fakeSocket.serverSends('connect', undefined));
    expect(dot()).toBe(7);
  });

  it('follows a mute made on another screen: the chat’s news stops raising the dot, and the count is asked again', async () => {
    const { dot } = await signedIn();
    delete fakeSocket.answers.unseen;
    act(() => fakeSocket.serverSends('session', { _id: 's1', notification_flag: 30 }));
    // Muted before the count comes back.
    act(() => fakeSocket.serverSends('message', message('s1')));
    expect(dot()).toBe(2);
    act(() => fakeSocket.answer('unseen', { notifications_unseen_count: 1, muted_session_ids: ['s1'] }));
    expect(dot()).toBe(1);
    fakeSocket.answers.unseen = { notifications_unseen_count: 1, muted_session_ids: [] };
    act(() => fakeSocket.serverSends('session', { _id: 's1', notification_flag: 20 }));
    act(() => fakeSocket.serverSends('message', message('s1')));
    expect(dot()).toBe(2);
    // Another change of the chat (its title) leaves its mute and the count alone.
    act(() => fakeSocket.serverSends('session', { _id: 's1', title: 'Renamed' }));
    expect(dot()).toBe(2);
  });
});

describe('badges of a shown list', () => {
  beforeEach(() => vi.resetModules());

  it('raises a chat’s badge and moves it to the top of a list by activity; showing it clears it', async () => {
    const { applyToList } = await import('./unseen');
    const sessions = [listed('a'), listed('b', 1), listed('c')];
    const news: UnseenChange = { kind: 'unseen', message: message('c'), raisesDot: true };
    const moved = applyToList(sessions, news, true);
    expect(moved.map((s) => [s._id, s.unseen_count])).toEqual([
      ['c', 1],
      ['a', 0],
      ['b', 1],
    ]);
    expect(moved[0]?.updated_at).toBe(news.message.created_at);
    expect(applyToList(sessions, news, false).map((s) => s._id)).toEqual(['a', 'b', 'c']);
    expect(applyToList(moved, { kind: 'viewed', sessionId: 'c' }, true)[0]?.unseen_count).toBe(0);
    expect(applyToList(sessions, { kind: 'unseen', message: message('zz'), raisesDot: true }, true)).toBe(sessions);
  });

  it('counts a message that mentions the viewer, or everyone, on the chat’s mention badge; showing it clears both', async () => {
    const { applyToList, onUnseenChange, received } = await import('./unseen');
    let sessions = [listed('a'), listed('b')] as Session[];
    const off = onUnseenChange((change) => {
      sessions = applyToList(sessions, change, false);
    });
    received({ ...message('a'), data: { mentions: [me._id] } }, me._id);
    received({ ...message('a'), data: { mentions: ['someone-else'] } }, me._id);
    received({ ...message('b'), data: { mentions: ['all'] } }, me._id);
    expect(sessions.map((s) => [s._id, s.unseen_count, s.mention_count ?? 0])).toEqual([
      ['a', 2, 1],
      ['b', 1, 1],
    ]);
    sessions = applyToList(sessions, { kind: 'viewed', sessionId: 'a' }, false);
    expect(sessions.map((s) => [s.unseen_count, s.mention_count])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    off();
  });

  it('makes every message its chat’s last one: one’s own and one in a chat on screen raise no badge', async () => {
    const { applyToList, onUnseenChange, received, showing } = await import('./unseen');
    let sessions = [listed('a'), listed('b')] as Session[];
    const off = onUnseenChange((change) => {
      sessions = applyToList(sessions, change, true);
    });
    const hide = showing('a');
    received({ ...message('a'), payload: 'read at once' }, me._id);
    received({ ...message('b', me._id), payload: 'my own reply' }, me._id);
    expect(sessions.map((s) => [s._id, s.unseen_count, s.last_message?.payload])).toEqual([
      ['b', 0, 'my own reply'],
      ['a', 0, 'read at once'],
    ]);
    hide();
    off();
  });

  it('keeps a mounted list in step and asks for chats it lacks', async () => {
    const { useLiveBadges } = await import('./useUnseenSync');
    const { received } = await import('./unseen');
    let sessions = [listed('a'), listed('b')] as Session[];
    const missing: string[] = [];
    renderHook(() =>
      useLiveBadges(
        sessions,
        (change) => {
          sessions = typeof change === 'function' ? change(sessions) : change;
        },
        true,
        (news) => missing.push(news.dest_session_id),
      ),
    );
    act(() => {
      received(message('b'), me._id);
      received(message('new'), me._id);
    });
    expect(sessions.map((s) => [s._id, s.unseen_count])).toEqual([
      ['b', 1],
      ['a', 0],
    ]);
    expect(missing).toEqual(['new']);
  });
});
