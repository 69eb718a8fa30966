import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderChatWindow } from '../../test/chat';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import { chatSession } from '../../test/session';
import { JUMP_TO_PRESENT_TEXT, NEW_MESSAGES_TEXT, NO_SEARCH_RESULTS_TEXT } from './constants';
import type { InboxMessage, Session } from '../../shared/chat/types';
import type { ChatWindowRequest } from '../../shared/chat/chatContext';
import type { MessagesPage } from './chatApi';
import { serve } from '../../test/standIns';

/** A socket that never connects: the window polls, which these tests do not wait for. */
const fakeSocket = { connected: false, on: vi.fn(), off: vi.fn(), emit: vi.fn() };
serve({ socket: fakeSocket });

const me = { _id: 'u2', name: 'Bea', image: '', phone_number: null, email_id: 'b@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const DAY = Date.UTC(2026, 0, 5, 12);

const group = (fields: Partial<Session> = {}): Session =>
  chatSession({ _id: 'g1', title: 'Riverside', is_public: true, is_read_allowed: true, ...fields });

/** Message n of the chat, sent by u1 at DAY + n seconds. */
function message(n: number): InboxMessage {
  return {
    id: `m${n}`,
    dest_session_id: 'g1',
    src_id: 'u1',
    local_id: `l${n}`,
    created_at: DAY + n * 1000,
    type: 1003,
    payload: `message ${n}`,
    payload1: [],
    flags: { status: 'sent' },
    data: {},
  };
}

function page(numbers: number[], fields: Partial<MessagesPage> = {}): MessagesPage {
  return { inbox_messages: numbers.map(message), refs: { users: { u1: { _id: 'u1', name: 'Ann', image: '' } } }, has_more: false, next_less_than_timestamp: null, ...fields };
}

const range = (from: number, to: number) => [...Array(to - from + 1).keys()].map((n) => n + from);

async function openWindow(request: ChatWindowRequest, replies: (call: FetchCall) => FakeReply) {
  const calls = mockFetch((call) =>
    call.url.pathname === '/user/me'
      ? { body: { user: me, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } }
      : call.url.pathname === '/session/pins'
        ? { body: { pins: [] } }
        : replies(call),
  );
  await renderChatWindow(request);
  return calls;
}

const bodyOf = (call: FetchCall) => call.body as Record<string, unknown>;
const shownTexts = () => screen.getAllByTestId('chat-message').map((bubble) => within(bubble).queryByText(/^message \d+$/)?.textContent);

describe('opening a chat at a message', () => {
  beforeEach(() => vi.resetModules());

  it('opens a chat with unseen messages at the first of them, under a "New messages" line', async () => {
    const calls = await openWindow({ title: 'Riverside', sessions: [group({ unseen_count: 3 })] }, (call) =>
      call.url.pathname === '/session/messages' ? { body: page(range(1, 10)) } : { body: {} },
    );
    const divider = await screen.findByText(NEW_MESSAGES_TEXT);
    // The divider sits with the first unread message, the 8th of 10.
    const holder = divider.closest('[data-created-at]');
    expect(holder?.getAttribute('data-created-at')).toBe(String(message(8).created_at));
    expect(within(holder as HTMLElement).getByText('message 8')).toBeTruthy();
    expect(screen.getAllByText(NEW_MESSAGES_TEXT)).toHaveLength(1);
    // One page was enough.
    expect(calls.filter((call) => call.url.pathname === '/session/messages')).toHaveLength(1);
  });

  it('reads older pages back to the first unread message when the newest page does not hold it', async () => {
    const calls = await openWindow({ title: 'Riverside', sessions: [group({ unseen_count: 12 })] }, (call) => {
      if (call.url.pathname !== '/session/messages') return { body: {} };
      const before = bodyOf(call).less_than_timestamp;
      return before === undefined
        ? { body: page(range(11, 20), { has_more: true, next_less_than_timestamp: message(11).created_at }) }
        : { body: page(range(1, 10)) };
    });
    const divider = await screen.findByText(NEW_MESSAGES_TEXT);
    expect(divider.closest('[data-created-at]')?.getAttribute('data-created-at')).toBe(String(message(9).created_at));
    expect(calls.filter((call) => call.url.pathname === '/session/messages').map((call) => bodyOf(call).less_than_timestamp)).toEqual([undefined, message(11).created_at]);
  });

  it('shows no line when nothing is unseen', async () => {
    await openWindow({ title: 'Riverside', sessions: [group()] }, (call) => (call.url.pathname === '/session/messages' ? { body: page(range(1, 5)) } : { body: {} }));
    await screen.findByText('message 5');
    expect(screen.queryByText(NEW_MESSAGES_TEXT)).toBeNull();
  });

  it('opens at a message asked for, loads newer messages from there, and jumps back to the present', async () => {
    const calls = await openWindow({ title: 'Riverside', sessions: [group()], activeId: 'g1', at: message(40).created_at }, (call) => {
      if (call.url.pathname !== '/session/messages') return { body: {} };
      const body = bodyOf(call);
      if (body.around_timestamp === message(40).created_at) {
        return {
          body: page(range(35, 45), {
            has_more: true,
            next_less_than_timestamp: message(35).created_at,
            has_more_before: true,
            has_more_after: true,
            next_greater_than_timestamp: message(45).created_at,
          }),
        };
      }
      if (body.greater_than_timestamp === message(45).created_at) return { body: page(range(46, 50), { has_more: true }) };
      if (body.less_than_timestamp === message(35).created_at) return { body: page(range(30, 34)) };
      return { body: page(range(91, 100), { has_more: true, next_less_than_timestamp: message(91).created_at }) };
    });
    await screen.findByText('message 40');
    expect(calls.find((call) => call.url.pathname === '/session/messages')?.body).toEqual({ session_id: 'g1', around_timestamp: message(40).created_at });
    // Marked for a moment, and not the newest: the way back is offered.
    expect(screen.getByText('message 40').closest('[data-created-at]')?.className).toContain('ring');
    const back = screen.getByRole('button', { name: JUMP_TO_PRESENT_TEXT });

    // Reaching the end of the stretch reads the next newer page (its top, in a list of no
    // height, the older one before it).
    fireEvent.scroll(screen.getByTestId('message-list'));
    await screen.findByText('message 50');
    await screen.findByText('message 30');
    expect(shownTexts()).toEqual(range(30, 50).map((n) => `message ${n}`));

    fireEvent.click(back);
    await screen.findByText('message 100');
    // The newest page instead of the stretch: no gap between what was shown and it.
    expect(shownTexts()).toEqual(range(91, 100).map((n) => `message ${n}`));
    const last = calls.filter((call) => call.url.pathname === '/session/messages').at(-1);
    expect(last?.body).toEqual({ session_id: 'g1' });
  });

  it('searches the chat from its header and opens it at the result picked', async () => {
    const calls = await openWindow({ title: 'Riverside', sessions: [group()] }, (call) => {
      if (call.url.pathname === '/session/search') {
        const q = bodyOf(call).q;
        return q === 'bike'
          ? { body: { inbox_messages: [{ ...message(7), payload: 'A BIKE for sale' }], refs: { users: { u1: { _id: 'u1', name: 'Ann', image: '' } } }, words: ['bike'], has_more: false, next_less_than_timestamp: null } }
          : { body: { inbox_messages: [], refs: { users: {} }, words: ['piano'], has_more: false, next_less_than_timestamp: null } };
      }
      if (call.url.pathname !== '/session/messages') return { body: {} };
      return bodyOf(call).around_timestamp === undefined ? { body: page(range(50, 60)) } : { body: page(range(2, 12), { has_more_after: true, next_greater_than_timestamp: message(12).created_at }) };
    });
    await screen.findByText('message 60');
    fireEvent.click(screen.getByRole('button', { name: 'Search in chat' }));
    const field = screen.getByRole('searchbox', { name: 'Search in this chat' });

    // Enter searches at once (typing waits for a pause first).
    const search = (q: string) => {
      fireEvent.change(field, { target: { value: q } });
      fireEvent.submit(screen.getByRole('search'));
    };
    search('piano');
    expect(await screen.findByText(NO_SEARCH_RESULTS_TEXT)).toBeTruthy();

    search('bike');
    const results = await screen.findByRole('list', { name: 'Search results' });
    // The sender, and the word found marked.
    expect(within(results).getByText('Ann')).toBeTruthy();
    expect(within(results).getByText('BIKE').tagName).toBe('MARK');
    expect(calls.find((call) => call.url.pathname === '/session/search' && bodyOf(call).q === 'bike')?.body).toEqual({ session_id: 'g1', q: 'bike', less_than_timestamp: null });

    fireEvent.click(within(results).getByRole('button'));
    await screen.findByText('message 7');
    expect(screen.queryByTestId('chat-search')).toBeNull();
    expect(calls.some((call) => bodyOf(call)?.around_timestamp === message(7).created_at)).toBe(true);
    expect(screen.getByText('message 7').closest('[data-created-at]')?.className).toContain('ring');
    await waitFor(() => expect(screen.getByRole('button', { name: JUMP_TO_PRESENT_TEXT })).toBeTruthy());
  });
});
