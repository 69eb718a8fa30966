import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { chatSession } from '../../test/session';
import type { Session } from '../../shared/chat/types';
import { serve } from '../../test/standIns';

/** A socket that never connects, so the window falls back to polling. */
const fakeSocket = { connected: false, on: vi.fn(), off: vi.fn(), emit: vi.fn() };
serve({ socket: fakeSocket });

const me = { _id: 'u2', name: 'Bea', image: '', phone_number: null, email_id: 'b@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

/** Bea's post's chat with one who asked about it: the window shows such chats as tabs named after them. */
const chat = (id: string, askerId: string): Session => chatSession({ _id: id, title: 'Bea’s bike', data: { item_id: 'i1', owner_id: me._id, user_id: askerId } });
const chats: Record<string, Session> = { a: chat('a', 'u3'), b: chat('b', 'u4') };
/** A chat about someone else's post that Bea has not written in yet: the server has none. */
const notBegun: Session = { ...chat('r_i9_u2', me._id), title: 'A lamp', is_dummy: true, session_user_type: null, data: { item_id: 'i9', owner_id: 'u9', user_id: me._id } };
const askers: Record<string, { _id: string; name: string; image: string }> = { u3: { _id: 'u3', name: 'Cleo', image: '' }, u4: { _id: 'u4', name: 'Dan', image: '' } };

/** The app as a tab shows it after a (re)load: the chat provider, and a page that may open a chat. */
async function loadTab({ signedIn = true } = {}) {
  const calls = mockFetch((call) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: signedIn ? me : null, guest_user: {} } };
    if (path === '/session/pins') return { body: { pins: [] } };
    if (path === '/get_by_ids') {
      const { session_ids: sessionIds = [], user_ids: userIds = [] } = call.body as { session_ids?: string[]; user_ids?: string[] };
      const found = <T,>(known: Record<string, T>, ids: string[]) => Object.fromEntries(ids.filter((id) => id in known).map((id) => [id, known[id]]));
      return { body: { sessions: found(chats, sessionIds), users: found(askers, userIds) } };
    }
    if (path === '/session/send') return new Promise(() => undefined);
    return { body: { inbox_messages: [], refs: { users: {} }, has_more: false, next_less_than_timestamp: null } };
  });
  const { ChatProvider } = await import('.');
  const { chatPlugins } = await import('../../app/chatPlugins');
  const { useChatWindow } = await import('../../shared/chat/chatContext');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  function Page() {
    const { openChat } = useChatWindow();
    return (
      <>
        <button type="button" onClick={() => openChat({ title: 'Two chats', sessions: [chats.a!, chats.b!] })}>
          Open chats
        </button>
        <button type="button" onClick={() => openChat({ title: 'A lamp', sessions: [notBegun] })}>
          Ask about a post
        </button>
      </>
    );
  }
  render(
    <UiProvider>
      <ChatProvider kinds={chatPlugins}>
        <Page />
      </ChatProvider>
    </UiProvider>,
  );
  return calls;
}

/** A reload (or, `as: 'navigate'`, a link followed to the app): the page goes, and the app starts again with only what the tab kept. */
async function reload(options?: { signedIn?: boolean; as?: NavigationTimingType }) {
  cleanup();
  vi.resetModules();
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type: options?.as ?? 'reload' } as PerformanceNavigationTiming]);
  return loadTab(options);
}

const chatWindow = () => screen.findByTestId('chat-window');
const messageBox = async () => within(await chatWindow()).findByRole('textbox', { name: 'Message' });

describe('a chat across reloads', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.restoreAllMocks());

  it('opens again on the chat that was shown, with what was typed and not sent', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Open chats' }));
    fireEvent.click(await within(await chatWindow()).findByRole('tab', { name: 'Dan' }));
    fireEvent.change(await messageBox(), { target: { value: 'See you at six' } });

    await reload();
    const window = await chatWindow();
    expect((await within(window).findByRole('tab', { name: 'Dan' })).getAttribute('aria-selected')).toBe('true');
    expect(((await messageBox()) as HTMLTextAreaElement).value).toBe('See you at six');
    // Each chat keeps its own.
    fireEvent.click(within(window).getByRole('tab', { name: 'Cleo' }));
    await waitFor(async () => expect(((await messageBox()) as HTMLTextAreaElement).value).toBe(''));
  });

  it('opens again a chat not begun yet, with its first message as typed', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Ask about a post' }));
    fireEvent.change(await messageBox(), { target: { value: 'Is the lamp still there?' } });
    await reload();
    expect(((await messageBox()) as HTMLTextAreaElement).value).toBe('Is the lamp still there?');
    expect(within(await chatWindow()).getByRole('heading', { name: 'A lamp' })).toBeTruthy();
  });

  it('forgets the draft once it is sent, and the window once it is closed', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Open chats' }));
    const box = await messageBox();
    fireEvent.change(box, { target: { value: 'On my way' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await within(await chatWindow()).findByText('On my way');

    await reload();
    expect(((await messageBox()) as HTMLTextAreaElement).value).toBe('');
    fireEvent.click(within(await chatWindow()).getByRole('button', { name: 'Close chat' }));
    const calls = await reload();
    await screen.findByRole('button', { name: 'Open chats' });
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/user/me')).toBe(true));
    expect(screen.queryByTestId('chat-window')).toBeNull();
  });

  it('leaves a page reached by a link as it is, the draft waiting in its chat', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Open chats' }));
    fireEvent.change(await messageBox(), { target: { value: 'See you at six' } });
    const calls = await reload({ as: 'navigate' });
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/user/me')).toBe(true));
    await act(async () => undefined);
    expect(screen.queryByTestId('chat-window')).toBeNull();
    // Nor does a reload of that page, which never showed one.
    expect(window.sessionStorage.getItem('agora.chat.window')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open chats' }));
    expect(((await messageBox()) as HTMLTextAreaElement).value).toBe('See you at six');
  });

  it('keeps a minimized window minimized', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Open chats' }));
    fireEvent.click(within(await chatWindow()).getByRole('button', { name: 'Minimize chat' }));
    await reload();
    expect(await screen.findByRole('button', { name: 'Open chat Bea’s bike' })).toBeTruthy();
  });

  it('keeps nothing for the next account', async () => {
    await loadTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Open chats' }));
    fireEvent.change(await messageBox(), { target: { value: 'Private words' } });
    const { clearAuthKey } = await import('../../shared/session/authKey');
    clearAuthKey();
    const { readDraft } = await import('./chatMemory');
    expect(readDraft('a')).toBe('');
    const calls = await reload();
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/user/me')).toBe(true));
    await act(async () => undefined);
    expect(screen.queryByTestId('chat-window')).toBeNull();
  });
});
