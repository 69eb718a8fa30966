import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderChatWindow } from '../../test/chat';
import { FakeSocket } from '../../test/fakeSocket';
import { serve } from '../../test/standIns';
import { mockFetch } from '../../test/fetchMock';
import { chatSession } from '../../test/session';
import type { InboxMessage, Session } from '../../shared/chat/types';

/** A socket whose server side the test plays: it drops and comes back, and answers `join` when told. */
const fakeSocket = new FakeSocket({ unseen: { notifications_unseen_count: 0, muted_session_ids: [] } });
serve({ socket: fakeSocket });

const me = { _id: 'u2', name: 'Bea', image: '', phone_number: null, email_id: 'b@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

const group: Session = chatSession({ _id: 'g1', title: 'Neighbours', is_public: true, is_read_allowed: true, notification_flag: null });

// Older than "recent": polling, were it on, would wait its slow interval (a minute).
const shownAt = Date.now() - 10 * 60_000;
const message = (id: string, createdAt: number, payload: string): InboxMessage => ({
  id,
  dest_session_id: 'g1',
  src_id: 'u1',
  local_id: `l-${id}`,
  created_at: createdAt,
  type: 1003,
  payload,
  payload1: [],
  flags: { status: 'sent' },
  data: {},
});
const page = (messages: InboxMessage[], hasMore = false) => ({
  body: { inbox_messages: messages, refs: { users: {} }, has_more: hasMore, next_less_than_timestamp: null },
});

/**
 * The server's message pages: the newest holds one message shown at `shownAt`; `newer` answers
 * the pages after a time. Returns the requests for pages after a time, as they come.
 */
function serveMessages(newer: (after: number) => ReturnType<typeof page>) {
  const calls = mockFetch((call) => {
    if (call.url.pathname === '/user/me') return { body: { user: me, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } };
    if (call.url.pathname === '/session/pins') return { body: { pins: [] } };
    if (call.url.pathname !== '/session/messages') return { body: {} };
    const after = (call.body as { greater_than_timestamp?: number }).greater_than_timestamp;
    return after === undefined ? page([message('m1', shownAt, 'Shown before')]) : newer(after);
  });
  return () => calls.filter((call) => (call.body as { greater_than_timestamp?: number })?.greater_than_timestamp !== undefined);
}

/** The group's window open on its newest page, its socket in the chat's room. */
async function openAndJoin() {
  await renderChatWindow({ title: 'Neighbours', sessions: [group] });
  await screen.findByText('Shown before');
  await waitFor(() => expect(fakeSocket.waiting('join').length).toBeGreaterThan(0));
  // The first join fetches nothing more: the window's first page covers it.
  act(() => fakeSocket.answer('join', { ok: true }));
}

describe('a chat whose socket reconnects', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeSocket.reset();
  });

  it('fetches what was stored while it was away once the server answers its join again', async () => {
    // Stored while the socket was down, after the last poll: the room will not repeat them.
    const away = [message('m2', shownAt + 1, 'Stored while away'), message('m3', shownAt + 2, 'And this')];
    // Two pages: the catch-up follows has_more.
    const newerAsked = serveMessages((after) => (after === shownAt ? page(away.slice(0, 1), true) : page(away.slice(1))));
    await openAndJoin();

    act(() => fakeSocket.setConnected(false));
    act(() => fakeSocket.setConnected(true));
    await waitFor(() => expect(fakeSocket.waiting('join')).toHaveLength(1));
    // Not before the server has put the socket in the chat's room again.
    expect(newerAsked()).toEqual([]);
    // The room's next message may come before the join's answer (the server puts a socket in
    // the rooms of chats its user follows as it connects): the gap is still fetched.
    act(() => fakeSocket.serverSends('message', message('m4', shownAt + 3, 'Heard on the new edge')));
    await screen.findByText('Heard on the new edge');

    act(() => fakeSocket.answer('join', { ok: true }));
    await screen.findByText('Stored while away');
    await screen.findByText('And this');
    expect(newerAsked().map((call) => call.body)).toEqual([
      { session_id: 'g1', greater_than_timestamp: shownAt },
      { session_id: 'g1', greater_than_timestamp: shownAt + 1 },
    ]);
    expect(screen.getAllByTestId('chat-message')).toHaveLength(4);
  });

  it('fetches the gap from before a room message that came ahead of the connect itself', async () => {
    // The server puts the socket in its rooms before it answers the connect: the room's next
    // message can come first, newer than what was stored while the socket was away.
    const away = message('m2', shownAt + 1, 'Stored while away');
    const newerAsked = serveMessages((after) => page(after === shownAt ? [away] : []));
    await openAndJoin();

    act(() => fakeSocket.setConnected(false));
    act(() => fakeSocket.setConnected(true, [['message', message('m3', shownAt + 2, 'Heard before the connect')]]));
    await screen.findByText('Heard before the connect');
    await waitFor(() => expect(fakeSocket.waiting('join')).toHaveLength(1));
    act(() => fakeSocket.answer('join', { ok: true }));
    await screen.findByText('Stored while away');
    expect(newerAsked().map((call) => call.body)).toEqual([{ session_id: 'g1', greater_than_timestamp: shownAt }]);
  });
});
