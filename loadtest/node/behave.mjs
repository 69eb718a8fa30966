// What a signed-in person's open tab does on its socket (docs/load-model.md), for the
// crowd's `behave` command: typing and viewing at rates per person-minute, the tab closed
// and opened again now and then, and the receipts the web app sends for what arrives
// (web/src/features/chat/receipts.ts and useChatSession.ts). As the web app, it asks for no
// ack of typing, viewing and receipts but for one in ACK_SAMPLE of them, whose ack's time is
// kept per event name for locust's statistics; `unseen` (a reconnect) always asks for one.

// The web app's DELIVERED_RECEIPT_MS and DELIVERED_RECEIPT_SPREAD_MS: one receipt per chat
// for the newest of a short window, each screen's window a random part of the spread longer.
const RECEIPT_WINDOW_MS = 500;
const RECEIPT_SPREAD_MS = 1000;
// A closed tab opened again after this long.
const AWAY_MS = 2_000;
const ACK_TIMEOUT_MS = 30_000;
// The web app asks for no ack of these: an ack for each would cost the server a frame the
// product never sends. One in this many asks for one, to time the server's answer.
const ACK_SAMPLE = 5;
const UNACKED = new Set(["typing", "viewing", "delivered", "read"]);

const expo = (perMinute) => (-Math.log(1 - Math.random()) * 60_000) / perMinute;
const pick = (list) => list[Math.floor(Math.random() * list.length)];

export class Behaviour {
  // worker: the crowd's Worker (its sockets and members); rates: event name -> per minute.
  constructor(worker, rates) {
    this.worker = worker;
    this.rates = rates;
    this.timers = new Set();
    this.viewing = new Map(); // position -> session the tab shows (null: none)
    this.pending = new Map(); // `${position} ${session}` -> newest created_at waiting
    this.stats = {};
    this.stopped = false;
    for (const position of worker.sockets.keys()) {
      for (const [name, perMinute] of Object.entries(rates)) {
        if (perMinute > 0) this.every(name, perMinute, () => this.act(name, position));
      }
    }
  }

  every(name, perMinute, action) {
    const next = () => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopped) return;
        action();
        next();
      }, expo(perMinute));
      this.timers.add(timer);
    };
    next();
  }

  act(name, position) {
    const socket = this.worker.sockets.get(position);
    const chats = this.worker.members[position].joins;
    if (!socket?.connected || !chats.length) return;
    if (name === "typing") {
      // One types in the chat the tab shows; from another screen, one opens a chat first.
      if (!this.viewing.get(position)) this.show(socket, position, pick(chats));
      this.emit(name, socket, "typing", { session_id: this.viewing.get(position) });
    } else if (name === "viewing") {
      // Half the time a chat shows, half the time the feed (or another screen) does.
      this.show(socket, position, Math.random() < 0.5 ? pick(chats) : null);
    } else if (name === "tab: reconnect") this.reconnect(socket, position);
  }

  show(socket, position, shown) {
    this.viewing.set(position, shown);
    this.emit("viewing", socket, "viewing", { session_id: shown });
  }

  reconnect(socket, position) {
    socket.disconnect();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopped) return;
      const started = performance.now();
      socket.once("connect", () => {
        // The web app asks for the unseen summary on every (re)connect (useUnseenSync.ts),
        // and says again which chat the tab shows (useViewingReport.ts).
        this.emit("tab: reconnect", socket, "unseen", {}, started);
        this.show(socket, position, this.viewing.get(position) ?? null);
      });
      socket.connect();
    }, AWAY_MS);
    this.timers.add(timer);
  }

  receipts(position, messages) {
    const socket = this.worker.sockets.get(position);
    const me = this.worker.members[position].user_id;
    if (this.stopped || !socket) return;
    for (const message of messages) {
      if (!message || message.src_id === me || !message.created_at) continue;
      const session = message.dest_session_id;
      const key = `${position} ${session}`;
      const waiting = this.pending.get(key);
      this.pending.set(key, Math.max(waiting ?? 0, message.created_at));
      if (waiting !== undefined) continue;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const createdAt = this.pending.get(key);
        this.pending.delete(key);
        if (this.stopped || !socket.connected) return;
        const event = this.viewing.get(position) === session ? "read" : "delivered";
        this.emit(event, socket, event, { session_id: session, created_at: createdAt });
      }, RECEIPT_WINDOW_MS + Math.random() * RECEIPT_SPREAD_MS);
      this.timers.add(timer);
    }
  }

  async emit(name, socket, event, body, started = performance.now()) {
    if (UNACKED.has(event) && Math.random() * ACK_SAMPLE >= 1) {
      socket.emit(event, body);
      return;
    }
    const stat = (this.stats[name] ??= { times: [], errors: {} });
    try {
      const reply = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, body);
      if (reply?.errors) throw new Error(JSON.stringify(reply.errors).slice(0, 100));
      stat.times.push(performance.now() - started);
    } catch (error) {
      const reason = String(error?.message ?? error).slice(0, 100);
      stat.errors[reason] = (stat.errors[reason] ?? 0) + 1;
    }
  }

  // Ack times (ms) and errors per event name since the last call.
  take() {
    const stats = this.stats;
    this.stats = {};
    return stats;
  }

  stop() {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
