import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderChatWindow } from '../../test/chat';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import type { InboxMessage, Session } from '../../shared/chat/types';
import { HOUR_MS, TEMPLATE, businessSession, waMessage } from './testFixtures';
import { serve } from '../../test/standIns';

/** A connected socket whose events the test fires itself. */
const handlers = new Map<string, Array<(payload: unknown) => void>>();
const fakeSocket = {
  connected: true,
  on: (event: string, handler: (payload: unknown) => void) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
  off: (event: string, handler: (payload: unknown) => void) => handlers.set(event, (handlers.get(event) ?? []).filter((entry) => entry !== handler)),
  emit: vi.fn(),
};
serve({ socket: fakeSocket });
const fire = (event: string, payload: unknown) => act(() => handlers.get(event)?.forEach((handler) => handler(payload)));

const agent = { _id: 'u1', name: 'Ada Agent', image: '', phone_number: null, email_id: 'a@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

async function openBusinessChat(session: Session, messages: InboxMessage[], replies: (call: FetchCall) => FakeReply | undefined = () => undefined) {
  const calls = mockFetch((call) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: agent, guest_user: {} } };
    if (path === '/session/messages') return { body: { inbox_messages: messages, refs: { users: { u1: agent } }, has_more: false, next_less_than_timestamp: null } };
    return replies(call) ?? { body: {} };
  });
  await renderChatWindow({ title: session.title, sessions: [session] });
  return calls;
}

describe('a business chat in the chat window', () => {
  beforeEach(() => {
    vi.resetModules();
    handlers.clear();
  });

  it('shows the window countdown, the customer on the left, and ticks that move live with WhatsApp statuses', async () => {
    const session = businessSession();
    const inbound = waMessage({ data: { txt: 'Is the blue bike still there?', wa: { wamid: 'wamid.in1', kind: 'text' } } });
    const reply = waMessage({ type: 1018, src_id: 'u1', payload: 'Yes, come by!', info: { s1: inbound.created_at + 1 } });
    await openBusinessChat(session, [inbound, reply]);

    expect((await screen.findByTestId('wa-window')).textContent).toMatch(/Free-form replies allowed for 2[12] h \d+ min/);
    const [customerBubble, replyBubble] = await screen.findAllByTestId('chat-message');
    expect(within(customerBubble!).getByText('Ana Costa')).toBeTruthy();
    expect(within(replyBubble!).getByRole('img', { name: 'Sent' })).toBeTruthy();

    fire('wa_status', { type: 1022, session_id: session._id, id: reply.id, created_at: reply.created_at, info: { s1: 1, wa_s: 2, wa_d: 3 } });
    expect(within(replyBubble!).getByRole('img', { name: 'Delivered' })).toBeTruthy();
    fire('wa_status', { type: 1022, session_id: session._id, id: reply.id, created_at: reply.created_at, info: { s1: 1, wa_s: 2, wa_d: 3, wa_r: 4 } });
    const read = within(replyBubble!).getByRole('img', { name: 'Read' });
    expect(read.querySelector('svg')?.getAttribute('class')).toContain('text-blue-600');

    // A status that outruns its message (the send's reply still on its way) is kept for it.
    const early = waMessage({ type: 1018, src_id: 'u1', payload: 'Open until six', info: { s1: 1 } });
    fire('wa_status', { type: 1022, session_id: session._id, id: early.id, created_at: early.created_at, info: { s1: 1, wa_s: 2, wa_d: 3 } });
    fire('message', early);
    const earlyBubble = screen.getAllByTestId('chat-message').find((element) => element.textContent?.includes('Open until six'));
    expect(within(earlyBubble!).getByRole('img', { name: 'Delivered' })).toBeTruthy();

    fire('message_update', { session_id: session._id, message: { ...inbound, data: { ...inbound.data, reactions: { '31612345678': '🙏' } } } });
    expect(within(customerBubble!).getByRole('listitem', { name: '🙏 1' })).toBeTruthy();
  });

  it('a customer message shows when the customer sent it, not when it arrived', async () => {
    const session = businessSession();
    const now = Date.now();
    const late = waMessage({ created_at: now - 2000, data: { txt: 'Open tomorrow?', wa: { wamid: 'wamid.late', kind: 'text', sent_at: now - 25 * HOUR_MS } } });
    await openBusinessChat(session, [late]);
    const time = (await screen.findByTestId('chat-message')).querySelector('time')!;
    expect(time.textContent).toBe('yesterday');
    expect(time.getAttribute('dateTime')).toBe(new Date(now - 25 * HOUR_MS).toISOString());
    // Under the day it was sent, not the day it arrived.
    const day = new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
    expect(screen.getByRole('separator').textContent).toBe(day.format(now - 25 * HOUR_MS));
  });

  it('an agent answers a customer’s message quoting it', async () => {
    const session = businessSession();
    const asked = waMessage({ data: { txt: 'Do you fix brakes?', wa: { wamid: 'wamid.q', kind: 'text' } } });
    const calls = await openBusinessChat(session, [asked], (call) => (call.url.pathname === '/session/send' ? { body: { type: -1, errors: 'later' } } : undefined));
    const bubble = await screen.findByTestId('chat-message');
    fireEvent.click(within(bubble.parentElement!).getByRole('button', { name: 'Message menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Reply' }));
    expect(screen.getByRole('blockquote', { name: 'Replying to' }).textContent).toBe('Do you fix brakes?');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Yes, same day' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/send')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/session/send')?.body).toMatchObject({ _type: 1018, payload: 'Yes, same day', data: { context: { reply_to: asked.created_at } } });
    expect(screen.queryByRole('blockquote', { name: 'Replying to' })).toBeNull();
  });

  it('sends text as a 1018 and shows the server’s refusal in the error popup', async () => {
    const session = businessSession();
    const calls = await openBusinessChat(session, [waMessage({ data: { txt: 'Hi' } })], (call) =>
      call.url.pathname === '/session/send' ? { body: { type: -1, errors: { _type: 'The 24-hour window has closed: send a template' } } } : undefined,
    );
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'We open at nine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/send')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/session/send')?.body).toMatchObject({ _type: 1018, payload: 'We open at nine', dest_session_id: session._id });
    expect(await screen.findByText(/The 24-hour window has closed: send a template/)).toBeTruthy();
  });

  it('outside the window offers only templates; the picker previews the parameters as typed and sends a 1021', async () => {
    const now = Date.now();
    const session = businessSession({}, now - 30 * HOUR_MS);
    const calls = await openBusinessChat(session, [], (call) => (call.url.pathname === '/api/whatsapp/templates' ? { body: { templates: [TEMPLATE] } } : undefined));
    expect((await screen.findByTestId('wa-window')).textContent).toContain('Window closed: send a template');
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.getByTestId('template-only')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Send a template' }));
    const picker = await screen.findByRole('dialog', { name: 'Send a template' });
    fireEvent.click(await within(picker).findByRole('button', { name: /order_update/ }));
    expect(calls.find((call) => call.url.pathname === '/api/whatsapp/templates')?.url.searchParams.get('session_id')).toBe(session._id);
    const preview = within(picker).getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Hello {{1}}, your order ships on {{2}}.')).toBeTruthy();
    const send = within(picker).getByRole('button', { name: 'Send template' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    fireEvent.change(within(picker).getByLabelText('Header {{1}}'), { target: { value: '#42' } });
    fireEvent.change(within(picker).getByLabelText('Body {{1}}'), { target: { value: 'Ana' } });
    fireEvent.change(within(picker).getByLabelText('Body {{2}}'), { target: { value: 'Monday' } });
    fireEvent.change(within(picker).getByLabelText('Button link {{1}}'), { target: { value: '42' } });
    expect(within(preview).getByText('Order #42')).toBeTruthy();
    expect(within(preview).getByText('Hello Ana, your order ships on Monday.')).toBeTruthy();
    expect(within(preview).getByRole('link', { name: /Track/ }).getAttribute('href')).toBe('https://shop.example/track/42');

    fireEvent.click(send);
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/send')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/session/send')?.body).toMatchObject({
      _type: 1021,
      payload: '',
      data: { template: { name: 'order_update', language: 'en', parameters: { header: ['#42'], body: ['Ana', 'Monday'], buttons: ['42'] } } },
    });
  });

  it('the kind menu offers every kind and builds reply buttons', async () => {
    const calls = await openBusinessChat(businessSession(), []);
    fireEvent.click(await screen.findByRole('button', { name: 'Send something else' }));
    const menu = screen.getByRole('menu', { name: 'Message kinds' });
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      '🖼️Image', '📄Document', '🎵Audio', '🎬Video', '📍Location', '👤Contact', '🔘Reply buttons', '☰List', '📝Template',
    ]);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Reply buttons' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send reply buttons' });
    fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'Which size?' } });
    fireEvent.change(within(dialog).getByLabelText('Button 1'), { target: { value: 'Small' } });
    fireEvent.change(within(dialog).getByLabelText('Button 2'), { target: { value: 'Large' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/session/send')).toBe(true));
    expect(calls.find((call) => call.url.pathname === '/session/send')?.body).toMatchObject({
      _type: 1019,
      data: { wa_kind: 'interactive', interactive: { type: 'button', body: 'Which size?', buttons: [{ title: 'Small' }, { title: 'Large' }] } },
    });
  });

  it('the customer writing again (a session update) reopens the window and the free-form composer', async () => {
    const now = Date.now();
    const session = businessSession({}, now - 30 * HOUR_MS);
    await openBusinessChat(session, []);
    await screen.findByTestId('template-only');
    const whatsapp = { ...session.data.whatsapp!, last_inbound_at: now, window_ends_at: now + 24 * HOUR_MS };
    fire('session', { _id: session._id, data: { whatsapp } });
    expect((await screen.findByTestId('wa-window')).textContent).toMatch(/Free-form replies allowed for 2[34] h/);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });
});
