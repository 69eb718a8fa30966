// A bare Node socket.io relay: the fan-out baseline with the npm registry's socket.io, one
// process, its in-memory adapter, no storage and no login.
//
//     node loadtest/node/relay.mjs PORT
//
// It speaks what the Python relay (loadtest/relay.py) speaks: `join` (ack {ok}), a send as
// `POST /session/send` or the `send` event (ack: type 13 with the message), and every send
// goes to the room `s:<session>` as a `message` event of the shape Agora emits.

import { randomBytes } from "node:crypto";
import http from "node:http";
import { Server } from "socket.io";

const SEND_PATH = "/session/send";
const port = Number(process.argv[2]);

const room = (sessionId) => `s:${sessionId}`;

function relay(body) {
  const message = {
    id: randomBytes(12).toString("hex"),
    dest_session_id: body.dest_session_id,
    src_id: "relay",
    local_id: body.local_id ?? null,
    created_at: Date.now(),
    type: 1003,
    payload: body.payload ?? "",
    payload1: [],
    flags: { status: "sent" },
    data: {},
  };
  io.to(room(message.dest_session_id)).emit("message", message);
  return { type: 13, inbox_message: message };
}

const server = http.createServer((request, response) => {
  if (request.method !== "POST" || request.url !== SEND_PATH) {
    response.writeHead(404).end();
    return;
  }
  let text = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => (text += chunk));
  request.on("end", () => {
    const reply = JSON.stringify(relay(JSON.parse(text)));
    response.writeHead(200, { "Content-Type": "application/json" }).end(reply);
  });
});

const io = new Server(server, { path: "/socket.io", transports: ["websocket"] });
io.on("connection", (socket) => {
  socket.on("join", (data, ack) => {
    socket.join(room(data.session_id));
    ack({ ok: true });
  });
  socket.on("send", (data, ack) => ack(relay(data)));
});

server.listen(port, "127.0.0.1");
