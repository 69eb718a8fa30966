type Handler = (...args: unknown[]) => void;

/**
 * A socket whose server side a test plays: it hears what the app listens for, answers at once
 * the events named in `answers`, keeps the other calls' acknowledgements until the test
 * answers them, and drops and comes back when told.
 */
export class FakeSocket {
  connected = true;
  readonly handlers = new Map<string, Set<Handler>>();
  private readonly unanswered = new Map<string, Handler[]>();

  constructor(public answers: Record<string, unknown> = {}) {}

  on(event: string, handler: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
  }

  off(event: string, handler: Handler) {
    this.handlers.get(event)?.delete(handler);
  }

  emit(event: string, _data: unknown, ack?: Handler) {
    if (!ack) return;
    if (event in this.answers) ack(this.answers[event]);
    else this.unanswered.set(event, [...this.waiting(event), ack]);
  }

  /** The calls of `event` the test has not answered yet. */
  waiting(event: string): Handler[] {
    return this.unanswered.get(event) ?? [];
  }

  answer(event: string, reply: unknown) {
    const acks = this.waiting(event);
    this.unanswered.delete(event);
    acks.forEach((ack) => ack(reply));
  }

  serverSends(event: string, data: unknown) {
    this.handlers.get(event)?.forEach((handler) => handler(data));
  }

  /**
   * `early`: events the server sent before it answered the connect; socket.io-client keeps them
   * and hands them to the listeners right before "connect", in the same call.
   */
  setConnected(connected: boolean, early: [string, unknown][] = []) {
    this.connected = connected;
    early.forEach(([event, data]) => this.serverSends(event, data));
    this.handlers.get(connected ? 'connect' : 'disconnect')?.forEach((handler) => handler());
  }

  reset() {
    this.connected = true;
    this.handlers.clear();
    this.unanswered.clear();
  }
}
