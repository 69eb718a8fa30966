// The bench's load generator: chat members holding socket.io-client sockets and sending,
// driven by the Python harness (loadtest/node_crowd.py) over stdin/stdout, one JSON
// command and one JSON reply a line. Node decodes a frame for a fraction of what the
// Python crowd pays, so the generator leaves the server the cores it measures.
//
// A message's payload is "lt KEY SENT" (SENT: the sender's clock in seconds), so a
// receiver knows its send-to-receive latency without asking anyone.

import http from "node:http";
import { createInterface } from "node:readline";
import { io } from "socket.io-client";
import { Behaviour } from "./behave.mjs";

const OPEN_AT_ONCE = 16;
// Per worker. It bounds a runaway step, not a healthy one: at 1,600 msg/s a worker with
// replies in 250 ms (the target's p99) has 400 in flight, and a cap below that counted
// sends the generator held back as the server's misses.
const MAX_IN_FLIGHT = 1024;
// HTTP connections per worker (512 in all), for Agora and the naive server alike: enough
// for 2,500 requests a second per worker at 100 ms each. With one per request in flight,
// a slow second opened hundreds more, and accepting them slowed the next second further.
const HTTP_CONNECTIONS = 256;
const SEND_TIMEOUT_MS = 30_000;
const SOCKET_PATH = "/socket.io";

const now = () => performance.timeOrigin + performance.now();

class Worker {
  constructor({ index, tag, base_url, send_path, members }) {
    // Keys (and local ids) differ between crowds, so no run's send looks like a resend.
    this.prefix = `${tag}${index}.`;
    this.baseUrl = base_url;
    this.sendUrl = new URL(send_path, base_url);
    this.members = members;
    this.sockets = new Map(); // member position -> socket
    this.agent = new http.Agent({ keepAlive: true, maxSockets: HTTP_CONNECTIONS });
    this.sequence = 0;
    this.inFlight = 0;
    this.received = fresh();
  }

  async open() {
    const failures = [];
    const queue = this.members.map((member, position) => ({ member, position }));
    const opener = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (!next.member.socket) continue;
        try {
          this.sockets.set(next.position, await this.connect(next.member, next.position));
        } catch (error) {
          failures.push(String(error?.message ?? error).slice(0, 200));
        }
      }
    };
    await Promise.all(Array.from({ length: OPEN_AT_ONCE }, opener));
    return { opened: this.sockets.size, failures };
  }

  connect(member, position) {
    return new Promise((resolve, reject) => {
      const socket = io(this.baseUrl, {
        path: SOCKET_PATH,
        transports: ["websocket"],
        auth: { auth_key: member.auth_key },
        reconnection: false,
        forceNew: true,
        timeout: 30_000,
      });
      socket.onAny((event, data) => this.heard(event, data, position));
      socket.once("connect_error", reject);
      socket.once("connect", async () => {
        try {
          for (const session_id of member.joins) {
            const reply = await socket.timeout(30_000).emitWithAck("join", { session_id });
            if (!reply?.ok) throw new Error(`join refused: ${JSON.stringify(reply).slice(0, 120)}`);
          }
          resolve(socket);
        } catch (error) {
          socket.close();
          reject(error);
        }
      });
    });
  }

  heard(event, data, position) {
    // "message" carries one message, "messages" (a busy room's frame) several.
    if (event === "message") this.count([data], position);
    else if (event === "messages") this.count(data, position);
    else this.received.other_events += 1;
  }

  count(messages, position) {
    const at = now();
    this.behaviour?.receipts(position, messages);
    const received = this.received;
    received.frames += 1;
    for (const message of messages) {
      const [tag, key, sent] = String(message?.payload ?? "").split(" ");
      if (tag !== "lt") continue;
      received.counts[key] = (received.counts[key] ?? 0) + 1;
      received.latencies.push(Math.round(at - Number(sent) * 1000));
    }
  }

  async send({ seconds, rate, poisson, via }) {
    this.sends = { offered: 0, backlogged: 0, refused: 0, acked: [], errors: {} };
    const senders = this.members
      .map((member, position) => ({ member, position }))
      .filter(({ member }) => member.sends_to);
    const until = performance.now() + seconds * 1000;
    const pending = [];
    await Promise.all(senders.map((s) => this.pace(s, rate, poisson, until, via, pending)));
    await Promise.all(pending);
    return this.sends;
  }

  async pace({ member, position }, rate, poisson, until, via, pending) {
    const gap = () => (poisson ? -Math.log(1 - Math.random()) / rate : 1 / rate) * 1000;
    // Fixed-rate senders start at random offsets so that they do not fire in step.
    let at = performance.now() + (poisson ? gap() : (Math.random() / rate) * 1000);
    while (at < until) {
      const wait = at - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.sends.offered += 1;
      if (this.inFlight >= MAX_IN_FLIGHT) this.sends.backlogged += 1;
      else pending.push(this.sendOne(member, position, via));
      at += gap();
    }
  }

  async sendOne(member, position, via) {
    this.sequence += 1;
    const key = `${this.prefix}${this.sequence}`;
    const sent = now();
    const body = {
      dest_session_id: member.sends_to,
      payload: `lt ${key} ${(sent / 1000).toFixed(6)}`,
      local_id: key,
    };
    this.inFlight += 1;
    try {
      const reply =
        via === "socket"
          ? await this.sockets.get(position).timeout(SEND_TIMEOUT_MS).emitWithAck("send", body)
          : await this.post(body, member.auth_key);
      if (reply?.type === 13) this.sends.acked.push([key, member.sends_to, now() - sent]);
      else this.refuse(`refused: ${JSON.stringify(reply).slice(0, 100)}`);
    } catch (error) {
      this.refuse(String(error?.message ?? error).slice(0, 100));
    } finally {
      this.inFlight -= 1;
    }
  }

  refuse(reason) {
    this.sends.refused += 1;
    this.sends.errors[reason] = (this.sends.errors[reason] ?? 0) + 1;
  }

  post(body, authKey) {
    const data = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.sendUrl,
        {
          method: "POST",
          agent: this.agent,
          timeout: SEND_TIMEOUT_MS,
          headers: {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(data),
            Authorization: `Bearer ${authKey}`,
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => {
            if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 80)}`));
            else resolve(JSON.parse(text));
          });
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", reject);
      request.end(data);
    });
  }

  countReceived() {
    let total = 0;
    for (const n of Object.values(this.received.counts)) total += n;
    return total;
  }

  collect() {
    const received = this.received;
    this.received = fresh();
    return received;
  }

  behave({ rates }) {
    this.behaviour?.stop();
    this.behaviour = new Behaviour(this, rates);
    return null;
  }

  takeEvents() {
    return this.behaviour?.take() ?? {};
  }

  close() {
    this.behaviour?.stop();
    for (const socket of this.sockets.values()) socket.close();
    this.agent.destroy();
  }
}

function fresh() {
  return { counts: {}, latencies: [], frames: 0, other_events: 0 };
}

let worker;
const commands = {
  init: (args) => {
    worker = new Worker(args);
    return { pid: process.pid };
  },
  open: () => worker.open(),
  send: (args) => worker.send(args),
  count: () => worker.countReceived(),
  collect: () => worker.collect(),
  behave: (args) => worker.behave(args),
  events: () => worker.takeEvents(),
  close: () => {
    worker?.close();
    setImmediate(() => process.exit(0));
    return null;
  },
};

// One command at a time, in order: the harness waits for each reply.
let chain = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const { cmd, ...args } = JSON.parse(line);
  chain = chain.then(async () => {
    let reply;
    try {
      reply = { ok: await commands[cmd](args) };
    } catch (error) {
      reply = { error: String(error?.stack ?? error) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
});
process.stdin.on("end", () => process.exit(0));
