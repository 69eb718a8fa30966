import { describe, expect, it, vi } from 'vitest';
import type { InboxMessage } from '../../shared/chat/types';
import type { SendBody, SendReply } from './chatApi';
import { Outbox, type OutboxEvent } from './outbox';

const body = (localId: string): SendBody => ({
  dest_session_id: 's1',
  payload: 'hi',
  payload1: [],
  _type: 1003,
  is_dummy_session: false,
  created_at: 1,
  local_id: localId,
  data: {},
});

const stored = (localId: string) => ({ id: `m-${localId}`, local_id: localId }) as InboxMessage;
const ok = (localId: string): SendReply => ({ type: 13, inbox_message: stored(localId), new_session_created: false, is_user_in_session: true });

describe('outbox', () => {
  it('keeps a message that could not reach the server and retries it with the same local_id', async () => {
    const events: OutboxEvent[] = [];
    const send = vi
      .fn<(body: SendBody) => Promise<SendReply>>()
      .mockRejectedValueOnce({ status: 0, errors: 'offline' })
      .mockImplementation(async (sent) => ok(sent.local_id));
    const outbox = new Outbox(send, (event) => events.push(event));

    await outbox.submit(body('L1'));
    expect(events).toEqual([{ kind: 'failed', localId: 'L1' }]);
    expect(outbox.size).toBe(1);

    await outbox.retryAll();
    expect(send.mock.calls.map(([sent]) => sent.local_id)).toEqual(['L1', 'L1']);
    expect(events[1]).toEqual({ kind: 'sent', localId: 'L1', message: stored('L1'), newSessionCreated: false });
    expect(outbox.size).toBe(0);

    await outbox.retryAll();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('drops a message the server refused, with its errors', async () => {
    const events: OutboxEvent[] = [];
    const outbox = new Outbox(async () => ({ type: -1, errors: 'Blocked' }), (event) => events.push(event));
    await outbox.submit(body('L2'));
    expect(events).toEqual([{ kind: 'rejected', localId: 'L2', errors: 'Blocked' }]);
    expect(outbox.size).toBe(0);
  });

  it('treats an HTTP failure as the server refusing, not as offline', async () => {
    const events: OutboxEvent[] = [];
    const outbox = new Outbox(() => Promise.reject({ status: 403, errors: 'No rights' }), (event) => events.push(event));
    await outbox.submit(body('L3'));
    expect(events).toEqual([{ kind: 'rejected', localId: 'L3', errors: 'No rights' }]);
  });

  it('does not send a message twice while its first attempt is still on the way', async () => {
    let release: (reply: SendReply) => void = () => undefined;
    const send = vi.fn(() => new Promise<SendReply>((resolve) => (release = resolve)));
    const outbox = new Outbox(send, () => undefined);
    const first = outbox.submit(body('L4'));
    await outbox.retryAll();
    release(ok('L4'));
    await first;
    expect(send).toHaveBeenCalledOnce();
  });
});
