import { describe, expect, it } from 'vitest';
import { CHAT_POLL_FAST_MS, CHAT_POLL_SLOW_MS, CHAT_RECENT_MESSAGE_MS } from './constants';
import type { ChatMessage } from '../../shared/chat/types';
import { deliveryIcon, latestServerTime, mergeMessages, messagePreview, outgoingMessage, pollIntervalMs, raiseStatus, replaceMessage } from './messages';

const message = (fields: Partial<ChatMessage>): ChatMessage => ({
  id: 'm1',
  dest_session_id: 's1',
  src_id: 'u1',
  local_id: '',
  created_at: 1000,
  type: 1003,
  payload: 'hi',
  payload1: [],
  flags: {},
  data: {},
  ...fields,
});

describe('delivery icon', () => {
  it.each([
    [{ flags: { status: 'read' as const } }, 'read'],
    [{ flags: { status: 'delivered' as const } }, 'delivered'],
    [{ flags: { status: 'sent' as const } }, 'sent'],
    [{}, 'sent'],
    [{ local: 'sending' as const }, 'pending'],
    [{ local: 'failed' as const }, 'not_sent'],
    [{ errors: 'no credits', flags: { status: 'sent' as const } }, 'error'],
  ])('%j shows %s', (fields, icon) => {
    expect(deliveryIcon(message(fields))).toBe(icon);
  });

  it('never lowers a status', () => {
    const read = message({ flags: { status: 'read' } });
    expect(raiseStatus(read, 'delivered')).toBe(read);
    expect(raiseStatus(message({}), 'delivered').flags.status).toBe('delivered');
  });
});

describe('merging messages', () => {
  it('replaces the local copy with the server message that carries its local_id', () => {
    const local = message({ id: 'L1', local_id: 'L1', local: 'sending', created_at: 2000 });
    const server = message({ id: 'm9', local_id: 'L1', created_at: 2001, flags: { status: 'sent' } });
    expect(mergeMessages([local], [server])).toEqual([server]);
  });

  it('keeps one copy of a message seen from both the socket and a poll, oldest first', () => {
    const a = message({ id: 'a', created_at: 1 });
    const b = message({ id: 'b', created_at: 2 });
    const merged = mergeMessages([b], [a, b, a]);
    expect(merged.map((entry) => entry.id)).toEqual(['a', 'b']);
  });

  it('does not let a late local copy or an older status win over the server copy', () => {
    const server = message({ id: 'm9', local_id: 'L1', flags: { status: 'read' } });
    const local = message({ id: 'L1', local_id: 'L1', local: 'sending' });
    expect(mergeMessages([server], [local])).toEqual([server]);
    const stale = message({ id: 'm9', local_id: 'L1', flags: { status: 'sent' } });
    expect(mergeMessages([server], [stale])[0]?.flags.status).toBe('read');
  });

  it('an updated message (a reaction) replaces the loaded one, and one not loaded stays out', () => {
    const shown = message({ id: 'm1', payload: 'Hi' });
    const updated = replaceMessage([shown], { ...shown, data: { reactions: { u2: '👍' } } });
    expect(updated[0]?.data.reactions).toEqual({ u2: '👍' });
    expect(replaceMessage([shown], message({ id: 'm2' }))).toEqual([shown]);
  });

  it('an edited message keeps the tick it had (the update says only "sent")', () => {
    const read = message({ id: 'm1', payload: 'Hi', flags: { status: 'read' } });
    const [edited] = replaceMessage([read], { ...read, payload: 'Hello', edited_at: 7, flags: { status: 'sent' } });
    expect([edited?.payload, edited?.edited_at, edited?.flags.status]).toEqual(['Hello', 7, 'read']);
  });

  it('polls from the newest message the server has, skipping local ones', () => {
    expect(latestServerTime([message({ created_at: 5 }), message({ id: 'x', local_id: 'x', local: 'sending', created_at: 9 })])).toBe(5);
    expect(latestServerTime([])).toBeNull();
  });
});

describe('polling interval', () => {
  const now = 10_000_000;
  it('polls fast while the latest message is recent, slowly otherwise', () => {
    expect(pollIntervalMs(now - 1000, now)).toBe(CHAT_POLL_FAST_MS);
    expect(pollIntervalMs(now - CHAT_RECENT_MESSAGE_MS, now)).toBe(CHAT_POLL_SLOW_MS);
    expect(pollIntervalMs(null, now)).toBe(CHAT_POLL_SLOW_MS);
  });
});

describe('outgoing message', () => {
  const to = { sessionId: 's1', isDummy: true, senderId: 'u2' };
  const place = { address: 'Nairobi, Kenya', latitude: -1.286, longitude: 36.817 };

  it('shares a place as a chat message without text, shown at once and sent with the same local_id', () => {
    const { local, body } = outgoingMessage({ text: '', files: [], type: 1003, data: { location: place } }, to, 'l-1', 5000);
    expect(body).toEqual({
      dest_session_id: 's1',
      payload: '',
      payload1: [],
      _type: 1003,
      is_dummy_session: true,
      created_at: 5000,
      local_id: 'l-1',
      data: { location: place },
    });
    expect(local).toMatchObject({ id: 'l-1', local_id: 'l-1', src_id: 'u2', type: 1003, data: { location: place }, local: 'sending' });
  });

  it('sends files by their urls and shows them whole', () => {
    const file = { url: '/uploads/a.png', title: 'a.png', mime_type: 'image/png', thumbnail: '', size: 10 };
    const { local, body } = outgoingMessage({ text: 'look', files: [file], type: 1003, data: {} }, to, 'l-2', 1);
    expect(body.payload1).toEqual(['/uploads/a.png']);
    expect(local.payload1).toEqual([file]);
  });

  it('previews a shared place by its address when there is no text', () => {
    expect(messagePreview(message({ payload: '', data: { location: place } }))).toBe('📍 Nairobi, Kenya');
    expect(messagePreview(message({ payload: 'hi', data: { location: place } }))).toBe('hi');
  });
});
