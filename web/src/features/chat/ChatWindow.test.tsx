import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderChatWindow } from '../../test/chat';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import { CANNOT_SEND_TEXT, NEED_LOGIN_TO_CHAT_TEXT } from './constants';
import type { Session } from '../../shared/chat/types';
import type { ChatWindowRequest } from '../../shared/chat/chatContext';
import { serve } from '../../test/standIns';

/** A socket that never connects, so the window falls back to polling. */
const fakeSocket = { connected: false, on: vi.fn(), off: vi.fn(), emit: vi.fn() };
serve({ socket: fakeSocket });

const me = { _id: 'u2', name: 'Bea', image: '', phone_number: null, email_id: 'b@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

const session = (fields: Partial<Session> = {}): Session => ({
  _id: 'r_i1_u2',
  title: 'Fix my bike',
  description: '',
  image: '',
  files: [],
  is_public: false,
  is_read_allowed: true,
  write_permission: 20,
  created_at: 0,
  is_inactive: false,
  is_dummy: true,
  session_user_type: null,
  can_send: true,
  notification_flag: null,
  data: { item_id: 'i1', owner_id: 'u1', user_id: 'u2' },
  unseen_count: 0,
  updated_at: 0,
  ...fields,
});

async function openWindow(request: ChatWindowRequest, replies: (call: FetchCall) => FakeReply | Promise<FakeReply>, signedIn = true) {
  const calls = mockFetch((call) =>
    call.url.pathname === '/user/me'
      ? { body: { user: signedIn ? me : null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } }
      : call.url.pathname === '/session/pins'
        ? { body: { pins: [] } }
        : replies(call),
  );
  await renderChatWindow(request);
  return calls;
}

describe('chat window', () => {
  beforeEach(() => vi.resetModules());

  it('shows a sent message at once, then the server copy with its tick; a dummy session becomes real', async () => {
    let answer: (reply: FakeReply) => void = () => undefined;
    const calls = await openWindow({ title: 'Fix my bike', sessions: [session()] }, (call) => {
      if (call.url.pathname === '/session/send') return new Promise((resolve) => (answer = resolve));
      return { body: { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null } };
    });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'Is it still for sale?' } });
    fireEvent.keyDown(box, { key: 'Enter' });

    const bubble = await screen.findByTestId('chat-message');
    expect(within(bubble).getByText('Is it still for sale?')).toBeTruthy();
    expect(within(bubble).getByRole('img', { name: 'Sending' })).toBeTruthy();
    const sent = calls.find((call) => call.url.pathname === '/session/send');
    expect(sent?.body).toMatchObject({ dest_session_id: 'r_i1_u2', payload: 'Is it still for sale?', payload1: [], _type: 1003, is_dummy_session: true });
    const localId = (sent?.body as { local_id: string }).local_id;

    await act(async () =>
      answer({
        body: {
          type: 13,
          new_session_created: true,
          is_user_in_session: true,
          inbox_message: {
            id: 'm1', dest_session_id: 'r_i1_u2', src_id: 'u2', local_id: localId, created_at: Date.now(),
            type: 1003, payload: 'Is it still for sale?', payload1: [], flags: { status: 'sent' }, data: {},
          },
        },
      }),
    );
    await waitFor(() => expect(within(screen.getByTestId('chat-message')).getByRole('img', { name: 'Sent' })).toBeTruthy());
    expect(screen.getAllByTestId('chat-message')).toHaveLength(1);
    // Real now: the window asks for the session's messages.
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/messages')).toBe(true));
  });

  it('removes a message the server refuses and shows why', async () => {
    await openWindow({ title: 'Fix my bike', sessions: [session()] }, (call) =>
      call.url.pathname === '/session/send' ? { body: { type: -1, errors: 'You are blocked' } } : { body: {} },
    );
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('You are blocked')).toBeTruthy();
    expect(screen.queryByTestId('chat-message')).toBeNull();
  });

  it('tells visitors to log in and members without rights that they cannot send', async () => {
    await openWindow({ title: 'Fix my bike', sessions: [session()] }, () => ({ body: {} }), false);
    expect(await screen.findByRole('button', { name: NEED_LOGIN_TO_CHAT_TEXT })).toBeTruthy();
  });

  it('says so when sending is not allowed', async () => {
    await openWindow({ title: 'Group', sessions: [session({ can_send: false })] }, () => ({ body: {} }));
    expect(await screen.findByText(CANNOT_SEND_TEXT)).toBeTruthy();
  });

  it('puts the focus in the composer when it opens and closes on Escape, after a dialog over it', async () => {
    const page = { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null };
    await openWindow({ title: 'Fix my bike', sessions: [session()] }, () => ({ body: page }));
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    // A dialog over the window takes the first Escape.
    const over = document.createElement('div');
    over.setAttribute('aria-modal', 'true');
    document.body.append(over);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Chat: Fix my bike' })).toBeTruthy();
    over.remove();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Chat: Fix my bike' })).toBeNull();
  });

  it('minimizes to a bar that reopens the window', async () => {
    await openWindow({ title: 'Fix my bike', sessions: [session()] }, () => ({ body: {} }));
    fireEvent.click(await screen.findByRole('button', { name: 'Minimize chat' }));
    expect(screen.queryByRole('dialog', { name: 'Chat: Fix my bike' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open chat Fix my bike' }));
    expect(screen.getByRole('dialog', { name: 'Chat: Fix my bike' })).toBeTruthy();
  });
});

describe("a post owner's chat window", () => {
  beforeEach(() => vi.resetModules());

  it('takes a chat about the post that begins while it is open', async () => {
    const newChat = session({ _id: 'r_i1_u3', is_dummy: false, data: { item_id: 'i1', owner_id: 'u2', user_id: 'u3' } });
    const calls = await openWindow({ title: 'Fix my bike', itemId: 'i1', sessions: [] }, (call) => {
      if (call.url.pathname === '/get_by_ids') return { body: { users: {}, sessions: { [newChat._id]: newChat }, session_with_users: {}, items: {} } };
      // The owner's offer bar reads the post (answered with a message page, it threw when
      // its read finished before the test did).
      if (call.url.pathname === '/api/item') return { body: { item: { _id: 'i1', user_id: 'u2', title: 'Fix my bike' }, group: {} } };
      return { body: { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null } };
    });
    expect(await screen.findByText('No chats about this post yet.')).toBeTruthy();
    const { received } = await import('./unseen');
    const message = (id: string, sessionId: string) => ({
      id, dest_session_id: sessionId, src_id: 'u3', local_id: id, created_at: Date.now(), type: 1003, payload: 'Hi', payload1: [], flags: { status: 'sent' as const }, data: {},
    });
    // A message of a chat about another post is none of this window's business.
    act(() => void received(message('m0', 'r_i9_u3'), 'u2'));
    act(() => void received(message('m1', 'r_i1_u3'), 'u2'));
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(screen.queryByText('No chats about this post yet.')).toBeNull();
    const lookedUp = calls.flatMap((call) => (call.url.pathname === '/get_by_ids' ? ((call.body as { session_ids?: string[] }).session_ids ?? []) : []));
    // The window looks up the new chat about its post, never the other post's (an earlier
    // test's window may still finish a lookup of its own chat here).
    expect(lookedUp).toContain('r_i1_u3');
    expect(lookedUp).not.toContain('r_i9_u3');
  });
});

describe("a post owner's window, opened as a chat begins", () => {
  beforeEach(() => vi.resetModules());

  it('reads the chats again once it listens, and shows the one its opener missed beside those it had', async () => {
    const shown = session({ _id: 'r_i1_u4', is_dummy: false, title: 'Ann', data: { item_id: 'i1', owner_id: 'u2', user_id: 'u4' } });
    const begun = session({ _id: 'r_i1_u3', is_dummy: false, title: 'Cas', data: { item_id: 'i1', owner_id: 'u2', user_id: 'u3' } });
    let reloads = 0;
    const reload = async () => {
      reloads += 1;
      return [{ ...shown, title: 'Ann again' }, begun];
    };
    await openWindow({ title: 'Fix my bike', itemId: 'i1', sessions: [shown], reload }, (call) => {
      if (call.url.pathname === '/api/item') return { body: { item: { _id: 'i1', user_id: 'u2', title: 'Fix my bike' }, group: {} } };
      return { body: { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null } };
    });
    expect(await screen.findByRole('tab', { name: /Cas/ })).toBeTruthy();
    // The tab it had stays as it was (its live state is newer than any read).
    expect(screen.getByRole('tab', { name: /Ann/ }).textContent).not.toContain('again');
    expect(reloads).toBe(1);
  });
});

describe('replies', () => {
  beforeEach(() => vi.resetModules());

  const message = (fields: Record<string, unknown>) => ({
    id: 'm1', dest_session_id: 'r_i1_u2', src_id: 'u1', local_id: 'l1', created_at: 1_700_000_000_000, type: 1003,
    payload: 'Is it the front tyre?', payload1: [], flags: { status: 'read' as const }, data: {}, ...fields,
  });

  it('a member answers a message quoting it, and the answer shows the quote', async () => {
    const question = message({});
    const answered = message({ id: 'm0', local_id: 'l0', created_at: question.created_at - 60_000, payload: 'My bike is broken' });
    const calls = await openWindow({ title: 'Fix my bike', sessions: [session({ is_dummy: false, session_user_type: 20 })] }, (call) => {
      if (call.url.pathname === '/session/send') return { body: { type: -1, errors: 'later' } };
      if (call.url.pathname === '/get_by_ids') return { body: { users: {}, sessions: {}, session_with_users: {}, items: {} } };
      const reply = message({ id: 'm2', local_id: 'l2', src_id: 'u2', created_at: question.created_at + 1, payload: 'Yes', data: { context: { reply_to: answered.created_at } } });
      return { body: { inbox_messages: [answered, question, reply], refs: { users: {} }, has_more: false, next_less_than_timestamp: null } };
    });
    // A message already answering another shows that one quoted.
    const replyBubble = (await screen.findAllByTestId('chat-message')).find((bubble) => bubble.textContent?.includes('Yes'))!;
    expect(within(replyBubble).getByRole('blockquote', { name: 'Reply to' }).textContent).toBe('My bike is broken');

    const bubble = screen.getAllByTestId('chat-message').find((entry) => entry.textContent?.includes('Is it the front tyre?'))!;
    fireEvent.click(within(bubble.parentElement!).getByRole('button', { name: 'Message menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Reply' }));
    expect(screen.getByRole('blockquote', { name: 'Replying to' }).textContent).toBe('Is it the front tyre?');
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'The front one' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/send')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/session/send')?.body).toMatchObject({ _type: 1003, payload: 'The front one', data: { context: { reply_to: question.created_at } } });
    expect(screen.queryByRole('blockquote', { name: 'Replying to' })).toBeNull();
  });

  it('offers no reply to a viewer who may not write', async () => {
    await openWindow({ title: 'Fix my bike', sessions: [session({ is_dummy: false, can_send: false, session_user_type: 20 })] }, () => ({
      body: { inbox_messages: [message({})], refs: { users: {} }, has_more: false, next_less_than_timestamp: null },
    }));
    const bubble = await screen.findByTestId('chat-message');
    expect(within(bubble.parentElement!).queryByRole('button', { name: 'Message menu' })).toBeNull();
  });

  it('gives focus back to what opened it when Escape closes it (issue 42: it fell to the page body)', async () => {
    const opener = document.body.appendChild(document.createElement('button'));
    opener.textContent = 'Chat';
    opener.focus();
    await openWindow({ title: 'Fix my bike', sessions: [session()] }, () => ({
      body: { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null },
    }));
    const box = await screen.findByRole('textbox', { name: 'Message' });
    box.focus();
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('chat-window')).toBeNull());
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });
});
