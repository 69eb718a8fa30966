import { describe, expect, it } from 'vitest';
import {
  customerSentAt,
  formatRemaining,
  isBusinessSession,
  repliedTo,
  replyWindow,
  waDeliveryIcon,
  waPreview,
  withWaStatuses,
} from './businessChat';
import { HOUR_MS, businessSession, waMessage } from './testFixtures';

describe('ticks from WhatsApp flags', () => {
  it('read is the blue double tick, delivered the double tick, sent or accepted the tick', () => {
    expect(waDeliveryIcon({ s1: 1, wa_s: 2, wa_d: 3, wa_r: 4 })).toBe('read');
    expect(waDeliveryIcon({ s1: 1, wa_s: 2, wa_d: 3 })).toBe('delivered');
    expect(waDeliveryIcon({ s1: 1, wa_s: 2 })).toBe('sent');
    expect(waDeliveryIcon({ s1: 1 })).toBe('sent');
  });

  it('not sent is the cross and failed the alert, whatever came before', () => {
    expect(waDeliveryIcon({ wa_ns: 5 })).toBe('not_sent');
    expect(waDeliveryIcon({ s1: 1, wa_s: 2, wa_f: 3, wa_errors: [{ code: 131026, title: 'Message undeliverable' }] })).toBe('error');
  });

  it('says nothing before the API took the message', () => {
    expect(waDeliveryIcon(undefined)).toBeNull();
    expect(waDeliveryIcon({ s0: true })).toBeNull();
  });

  it('a status report moves the named message’s flags only, and never back', () => {
    const [first, second] = [waMessage({ type: 1018 }), waMessage({ type: 1018, info: { s1: 1, wa_s: 2, wa_d: 3 } })];
    const moved = withWaStatuses([first, second], { [second.id]: { s1: 1, wa_r: 9 } });
    expect(moved.map((message) => waDeliveryIcon(message.info))).toEqual([null, 'read']);
    // The message's own copy, fresher than an early report, keeps what it knows.
    expect(withWaStatuses([second], { [second.id]: { s1: 1 } })[0]?.info).toEqual({ s1: 1, wa_s: 2, wa_d: 3 });
  });
});

describe('the 24-hour window', () => {
  it('counts down in hours and minutes, rounded down', () => {
    expect(formatRemaining(5 * HOUR_MS + 12 * 60_000 + 59_000)).toBe('5 h 12 min');
    expect(formatRemaining(3 * HOUR_MS)).toBe('3 h');
    expect(formatRemaining(45 * 60_000)).toBe('45 min');
    expect(formatRemaining(30_000)).toBe('< 1 min');
  });

  it('is open until its end, then asks for a template', () => {
    const now = 1_000_000;
    expect(replyWindow(now + 5 * HOUR_MS + 12 * 60_000, now)).toEqual({ open: true, text: 'Free-form replies allowed for 5 h 12 min' });
    expect(replyWindow(now, now)).toEqual({ open: false, text: 'Window closed: send a template' });
    expect(replyWindow(undefined, now).open).toBe(false);
  });
});

describe('business chats and their messages', () => {
  it('knows a business chat by its kind or its WhatsApp data', () => {
    expect(isBusinessSession(businessSession())).toBe(true);
    expect(isBusinessSession({ ...businessSession(), kind: undefined })).toBe(true);
    expect(isBusinessSession({ kind: undefined, data: {} })).toBe(false);
  });

  it('quotes the message a reply answers, by wamid or by created_at', () => {
    const asked = waMessage({ data: { txt: 'Is it in stock?', wa: { wamid: 'wamid.A', kind: 'text' } } });
    const ours = waMessage({ type: 1018, payload: 'Yes, 3 left' });
    const messages = [asked, ours];
    expect(repliedTo(messages, { data: { context: { reply_to_wamid: 'wamid.A' } } })).toBe('Is it in stock?');
    expect(repliedTo(messages, { data: { context: { reply_to: ours.created_at } } })).toBe('Yes, 3 left');
    expect(repliedTo(messages, { data: { context: { reply_to_wamid: 'wamid.gone' } } })).toBe('');
    expect(repliedTo(messages, { data: { context: { forwarded: true } } })).toBeNull();
  });

  it('previews each kind in one line', () => {
    expect(waPreview({ payload: '', data: { txt: 'Hello' } })).toBe('Hello');
    expect(waPreview({ payload: '', data: { wa: { kind: 'image' } } })).toBe('🖼️ Photo');
    expect(waPreview({ payload: '', data: { interactive: { type: 'button_reply', id: 'b1', title: 'Yes please' } } })).toBe('Yes please');
    expect(waPreview({ payload: '', data: { interactive: { type: 'button', body: 'Which size?', buttons: [] } } })).toBe('Which size?');
    expect(waPreview({ payload: '', data: { location: { latitude: 1, longitude: 2, address: 'Damrak 1', name: 'Shop' } } })).toBe('📍 Shop');
  });
});

describe('customerSentAt', () => {
  it('is Meta\'s time of the message, never later than it was stored, and the stored time without one', () => {
    expect(customerSentAt({ created_at: 5000, data: { wa: { sent_at: 1000 } } })).toBe(1000);
    expect(customerSentAt({ created_at: 5000, data: { wa: { sent_at: 9000 } } })).toBe(5000);
    expect(customerSentAt({ created_at: 5000, data: {} })).toBe(5000);
  });
});
