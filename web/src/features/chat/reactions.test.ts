import { describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import { mockFetch } from '../../test/fetchMock';
import type { InboxMessage, Session } from '../../shared/chat/types';
import { applyReactions, chosenReaction, mayReact, reactorsOf, sendReaction, withReaction } from './reactions';

const message = (createdAt: number, reactions?: Record<string, string>): InboxMessage => ({
  id: `m${createdAt}`,
  dest_session_id: 'g1',
  src_id: 'u1',
  local_id: `l${createdAt}`,
  created_at: createdAt,
  type: 1003,
  payload: 'hi',
  payload1: [],
  flags: { status: 'sent' },
  data: reactions ? { reactions, context: { reply_to: 1 } } : {},
});

describe('reactions', () => {
  it('choosing one\'s own emoji again takes it away; another replaces it', () => {
    expect(chosenReaction({ me: '👍' }, 'me', '👍')).toBe('');
    expect(chosenReaction({ me: '👍' }, 'me', '❤️')).toBe('❤️');
    expect(chosenReaction({ other: '👍' }, 'me', '👍')).toBe('👍');
    expect(chosenReaction(undefined, 'me', '👍')).toBe('👍');
  });

  it('keeps one reaction per person', () => {
    const before = { me: '👍', other: '😂' };
    expect(withReaction(before, 'me', '❤️')).toEqual({ me: '❤️', other: '😂' });
    expect(withReaction(before, 'me', '')).toEqual({ other: '😂' });
    expect(withReaction(undefined, 'me', '🙏')).toEqual({ me: '🙏' });
    expect(before).toEqual({ me: '👍', other: '😂' });
  });

  it('applies a tick\'s reactions to the messages it names, keeping the rest of their data', () => {
    const shown = [message(1, { u1: '👍' }), message(2)];
    const updated = applyReactions(shown, [
      { created_at: 1, reactions: {} },
      { created_at: 9, reactions: { u2: '👍' } },
    ]);
    expect(updated[0]?.data).toEqual({ reactions: {}, context: { reply_to: 1 } });
    expect(updated[1]).toBe(shown[1]);
    expect(updated).toHaveLength(2);
  });

  it('lists who reacted with an emoji, the viewer first', () => {
    expect(reactorsOf({ a: '👍', me: '👍', b: '😂' }, '👍', 'me')).toEqual(['me', 'a']);
  });

  it('lets members who may post react, outside plug-ins\' conversations', () => {
    const chat = { session_user_type: 20, can_send: true } as Session;
    expect(mayReact(chat, 'me', false)).toBe(true);
    expect(mayReact(chat, null, false)).toBe(false);
    expect(mayReact(chat, 'me', true)).toBe(false);
    expect(mayReact({ ...chat, session_user_type: null }, 'me', false)).toBe(false);
    expect(mayReact({ ...chat, session_user_type: 30 }, 'me', false)).toBe(false);
    expect(mayReact({ ...chat, can_send: false }, 'me', false)).toBe(false);
  });

  it('goes over the socket while it is connected, and over HTTP when it does not answer', async () => {
    const body = { session_id: 'g1', created_at: 1, emoji: '👍' };
    const answered = vi.fn().mockResolvedValue({ ok: true, reactions: { me: '👍' } });
    const connected = { connected: true, timeout: () => ({ emitWithAck: answered }) } as unknown as Socket;
    expect(await sendReaction(body, connected)).toEqual({ me: '👍' });
    expect(answered).toHaveBeenCalledWith('react', body);

    const calls = mockFetch(() => ({ body: { ok: true, reactions: { me: '👍', u1: '😂' } } }));
    const silent = { connected: true, timeout: () => ({ emitWithAck: vi.fn().mockRejectedValue(new Error('timeout')) }) } as unknown as Socket;
    expect(await sendReaction(body, silent)).toEqual({ me: '👍', u1: '😂' });
    expect(calls.map((call) => [call.url.pathname, call.body])).toEqual([['/session/message/react', body]]);
  });

  it('shows the socket\'s refusal as the server\'s answer', async () => {
    const refusing = { connected: true, timeout: () => ({ emitWithAck: vi.fn().mockResolvedValue({ errors: { emoji: 'No' } }) }) } as unknown as Socket;
    await expect(sendReaction({ session_id: 'g1', created_at: 1, emoji: 'x' }, refusing)).rejects.toMatchObject({ errors: { emoji: 'No' } });
  });
});
