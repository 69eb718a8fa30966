import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { chatSession } from '../../test/session';
import { waMessage } from '../../test/whatsapp';
import type { InboxMessage, Session } from '../../shared/chat/types';

const me = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'a@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

const message = (sessionId: string, payload: string): InboxMessage => ({
  id: `m-${sessionId}`,
  dest_session_id: sessionId,
  src_id: 'u2',
  local_id: `l-${sessionId}`,
  created_at: 5000,
  type: 1003,
  payload,
  payload1: [],
  flags: {},
  data: {},
});

const session = (id: string, fields: Partial<Session> = {}): Session => chatSession({ _id: id, description: `Post about ${id}`, updated_at: 1000, ...fields });

/** A WhatsApp business chat titled with the customer's number; its last message a photo. */
const businessChat = session('wa_c1_316', {
  kind: 'business',
  title: '+31 6 1234 5678',
  data: { whatsapp: { channel_id: 'c1', group_id: 'g1', wa_id: '316', profile_name: 'Ana Costa', last_inbound_at: 1, window_ends_at: 2 } },
  last_message: waMessage({ ...message('wa_c1_316', ''), type: 1020, src_id: 'wa:316', data: { wa: { wamid: 'w1', kind: 'image' } } }),
});

async function renderChats(more: Session[] = []) {
  await renderChatsWith(() => [session('a', { last_message: message('a', 'See you at six') }), session('b'), businessChat, ...more]);
}

/** /chats, its first page holding what `firstPage` gives (which may hold it back), and a
 * looked-up chat what `lookedUp` gives. */
async function renderChatsWith(firstPage: () => Session[] | Promise<Session[]>, lookedUp: () => Session | Promise<Session> = () => session('c')) {
  mockFetch(async (call) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: me, guest_user: {} } };
    if (path === '/user/chats') return { body: { sessions: await firstPage(), cursor: null, has_more: false } };
    // A chat the list lacks, looked up when its first message arrives: no last message in it.
    if (path === '/get_by_ids') return { body: { sessions: { c: await lookedUp() } } };
    if (path === '/session/messages') return { body: { inbox_messages: [], has_more: false, next_less_than_timestamp: null } };
    if (path === '/session/pins') return { body: { pins: [] } };
    if (path === '/session/user/update') return { body: { is_user_in_session: true, session_user: { notification_flag: (call.body as { notification_flag: number }).notification_flag } } };
    return { body: {} };
  });
  const { routes } = await import('../../app/routes');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/chats'] })} />
    </UiProvider>,
  );
}

const row = async (title: string) => (await screen.findByText(title)).closest('[data-testid="chat-row"]') as HTMLElement;

describe('chat list rows', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.useRealTimers());

  it('show the newest message, never the post description, however the row was loaded', async () => {
    await renderChats();
    expect(within(await row('Chat a')).getByText('See you at six')).toBeTruthy();
    expect(within(await row('Chat b')).getByText('No messages yet')).toBeTruthy();
    expect(screen.queryByText(/Post about/)).toBeNull();

    const { received } = await import('./unseen');
    act(() => {
      received(message('c', 'Is the piano still there?'), me._id);
    });
    expect(within(await row('Chat c')).getByText('Is the piano still there?')).toBeTruthy();
    expect(screen.queryByText(/Post about/)).toBeNull();
  });

  it('show a chat once when its news arrives while the list’s first page is on its way', async () => {
    let releasePage = () => {};
    const pageHeld = new Promise<void>((resolve) => (releasePage = resolve));
    await renderChatsWith(async () => {
      await pageHeld;
      return [session('c', { last_message: message('c', 'Still free?') }), session('a')];
    });
    const { received } = await import('./unseen');
    await vi.waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('/user/chats'))).toBe(true));
    act(() => {
      received(message('c', 'Still free?'), me._id);
    });
    await row('Chat c');
    releasePage();
    await row('Chat a');
    expect(screen.getAllByText('Chat c')).toHaveLength(1);
  });

  it('keep the counts read after a chat’s news when its row arrived with a page read before it', async () => {
    let releaseLookup = () => {};
    const lookupHeld = new Promise<void>((resolve) => (releaseLookup = resolve));
    let releasePage = () => {};
    const pageHeld = new Promise<void>((resolve) => (releasePage = resolve));
    await renderChatsWith(
      async () => {
        await pageHeld;
        return [session('c', { unseen_count: 0 }), session('a')];
      },
      async () => {
        await lookupHeld;
        return session('c', { unseen_count: 1 });
      },
    );
    const { received } = await import('./unseen');
    await vi.waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('/user/chats'))).toBe(true));
    act(() => {
      received(message('c', 'Still free?'), me._id);
    });
    releasePage();
    await row('Chat a');
    releaseLookup();
    await vi.waitFor(async () => expect(within(await row('Chat c')).getByLabelText('1 unseen')).toBeTruthy());
    expect(within(await row('Chat c')).getByText('Still free?')).toBeTruthy();
    expect(screen.getAllByText('Chat c')).toHaveLength(1);
  });

  it('say why a chat one may not read shows no messages: a request to join, a block', async () => {
    await renderChats([session('p', { session_user_type: 30 }), session('x', { session_user_type: 40 })]);
    expect(within(await row('Chat p')).getByText('Awaiting approval')).toBeTruthy();
    expect(within(await row('Chat x')).getByText('Blocked')).toBeTruthy();
  });

  it('show a muted chat as muted, its count grey rather than red', async () => {
    await renderChats([session('m', { notification_flag: 30, unseen_count: 2 }), session('n', { unseen_count: 1 })]);
    const muted = await row('Chat m');
    expect(within(muted).getByRole('img', { name: 'Muted' })).toBeTruthy();
    expect(within(muted).getByLabelText('2 unseen').className).toContain('bg-slate-200');
    const loud = await row('Chat n');
    expect(within(loud).queryByRole('img', { name: 'Muted' })).toBeNull();
    expect(within(loud).getByLabelText('1 unseen').className).toContain('bg-red-600');
  });

  it('show a mute made in the chat’s window at once, and the window opened again shows it too', async () => {
    await renderChats([session('n', { unseen_count: 1 })]);
    const user = userEvent.setup();
    await user.click(await row('Chat n'));
    const window = await screen.findByTestId('chat-window');
    await user.click(within(window).getByRole('button', { name: 'Mute notifications' }));
    await within(window).findByRole('button', { name: 'Unmute notifications' });
    await user.click(within(window).getByRole('button', { name: 'Close chat' }));
    const muted = await row('Chat n');
    expect(within(muted).getByRole('img', { name: 'Muted' })).toBeTruthy();
    await user.click(muted);
    const again = await screen.findByTestId('chat-window');
    await user.click(within(again).getByRole('button', { name: 'Unmute notifications' }));
    await within(again).findByRole('button', { name: 'Mute notifications' });
    await user.click(within(again).getByRole('button', { name: 'Close chat' }));
    expect(within(await row('Chat n')).queryByRole('img', { name: 'Muted' })).toBeNull();
  });

  it('mark business chats with WhatsApp and the customer’s name', async () => {
    await renderChats();
    const business = await row('Ana Costa');
    expect(within(business).getByRole('img', { name: 'WhatsApp' })).toBeTruthy();
    expect(within(business).getByText('🖼️ Photo')).toBeTruthy();
    expect(within(await row('Chat a')).queryByRole('img', { name: 'WhatsApp' })).toBeNull();
  });

  it('date a business chat by when its customer sent the last message, not when it arrived', async () => {
    // The clock stands still: a slow render must not turn '2 seconds ago' into 3.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const late = waMessage({ ...message('wa_c2_317', 'Open tomorrow?'), type: 1020, src_id: 'wa:317', created_at: now - 2000, data: { txt: 'Open tomorrow?', wa: { wamid: 'w2', kind: 'text', sent_at: now - 25 * 3600_000 } } });
    const lateChat = session('wa_c2_317', { ...businessChat, _id: 'wa_c2_317', updated_at: now - 2000, data: { whatsapp: { channel_id: 'c2', group_id: 'g1', wa_id: '317', profile_name: 'Bo Late', last_inbound_at: 1, window_ends_at: 2 } }, last_message: late });
    await renderChats([lateChat, session('d', { updated_at: now - 2000, last_message: message('d', 'Hi') })]);
    expect(within(await row('Bo Late')).getByText('yesterday')).toBeTruthy();
    expect(within(await row('Chat d')).getByText('2 seconds ago')).toBeTruthy();
  });
});
