import { SEND_OK_TYPE } from './constants';
import { isApiError, type ErrorsValue } from '../../shared/errors';
import type { InboxMessage } from '../../shared/chat/types';
import type { SendBody, SendReply } from './chatApi';

export type OutboxEvent =
  | { kind: 'sent'; localId: string; message: InboxMessage; newSessionCreated: boolean }
  | { kind: 'rejected'; localId: string; errors: ErrorsValue }
  | { kind: 'failed'; localId: string };

/**
 * Messages on their way to the server. One that cannot reach it stays here and goes again,
 * with the same local_id, on retryAll(); the server answers a repeat with the stored message.
 */
export class Outbox {
  private readonly waiting = new Map<string, SendBody>();
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly send: (body: SendBody) => Promise<SendReply>,
    private readonly report: (event: OutboxEvent) => void,
  ) {}

  submit(body: SendBody): Promise<void> {
    this.waiting.set(body.local_id, body);
    return this.attempt(body);
  }

  /** Sends again everything that failed to get through; called when the connection returns. */
  retryAll(): Promise<void> {
    const bodies = [...this.waiting.values()].filter((body) => !this.inFlight.has(body.local_id));
    return Promise.all(bodies.map((body) => this.attempt(body))).then(() => undefined);
  }

  get size(): number {
    return this.waiting.size;
  }

  private async attempt(body: SendBody): Promise<void> {
    const localId = body.local_id;
    this.inFlight.add(localId);
    try {
      const reply = await this.send(body);
      this.waiting.delete(localId);
      if (reply.type === SEND_OK_TYPE) {
        this.report({ kind: 'sent', localId, message: reply.inbox_message, newSessionCreated: reply.new_session_created });
      } else {
        this.report({ kind: 'rejected', localId, errors: reply.errors });
      }
    } catch (error) {
      // Status 0 is "no reply": worth another try. Any other failure is the server's answer.
      if (isApiError(error) && error.status !== 0) {
        this.waiting.delete(localId);
        this.report({ kind: 'rejected', localId, errors: error.errors });
      } else {
        this.report({ kind: 'failed', localId });
      }
    } finally {
      this.inFlight.delete(localId);
    }
  }
}
