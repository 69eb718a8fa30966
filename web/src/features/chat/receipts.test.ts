import type { Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, InboxMessage } from '../../shared/chat/types';
import { DELIVERED_RECEIPT_MS, DELIVERED_RECEIPT_SPREAD_MS } from './constants';
import { deliveredReceipts, raiseOwnStatuses } from './receipts';

const message = (id: string, src: string, createdAt: number, session = 's1'): InboxMessage => ({
  id,
  dest_session_id: session,
  src_id: src,
  local_id: id,
  created_at: createdAt,
  type: 1003,
  payload: id,
  payload1: [],
  flags: { status: 'sent' },
  data: {},
});

describe('deliveredReceipts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("acknowledges others' messages once per chat and window, for the newest, never one's own", () => {
    const emit = vi.fn();
    const acknowledge = deliveredReceipts({ connected: true, emit } as unknown as Socket, 'me');
    acknowledge(message('a', 'bob', 10));
    acknowledge(message('b', 'bob', 12));
    acknowledge(message('c', 'me', 13));
    acknowledge(message('d', 'cy', 5, 's2'));
    vi.runAllTimers();
    expect(emit.mock.calls).toHaveLength(2);
    expect(emit.mock.calls).toEqual(
      expect.arrayContaining([
        ['delivered', { session_id: 's1', created_at: 12 }],
        ['delivered', { session_id: 's2', created_at: 5 }],
      ]),
    );
  });

  it('waits one window and a random part of the spread, so that screens do not answer a big group at once', () => {
    const emit = vi.fn();
    const acknowledge = deliveredReceipts({ connected: true, emit } as unknown as Socket, 'me');
    vi.spyOn(Math, 'random').mockReturnValueOnce(0).mockReturnValueOnce(0.5);
    acknowledge(message('a', 'bob', 10));
    acknowledge(message('b', 'cy', 11, 's2'));
    vi.advanceTimersByTime(DELIVERED_RECEIPT_MS);
    expect(emit.mock.calls).toEqual([['delivered', { session_id: 's1', created_at: 10 }]]);
    vi.advanceTimersByTime(DELIVERED_RECEIPT_SPREAD_MS / 2 - 1);
    expect(emit).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(emit.mock.calls[1]).toEqual(['delivered', { session_id: 's2', created_at: 11 }]);
  });
});

describe('raiseOwnStatuses', () => {
  const list: ChatMessage[] = [message('m1', 'me', 1), message('m2', 'bob', 2), message('m3', 'me', 3)];

  it("raises one's own messages up to the one named, from another member's news only", () => {
    const raised = raiseOwnStatuses(list, 'me', 'bob', 2, 'read');
    expect(raised.map((entry) => entry.flags.status)).toEqual(['read', 'sent', 'sent']);
    expect(raiseOwnStatuses(list, 'me', 'me', 3, 'read')).toEqual(list);
  });
});
