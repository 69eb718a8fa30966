"""The floors the `ceiling` scenario measures Agora against: a naive server for the people of
docs/load-model.md, on one of two socket servers.

    python -m loadtest.naive_people MONGO_URL DATABASE REDIS_URL REDIS_PREFIX SOCKETS PORT

It answers every call loadtest/people.py and the Node crowd make, in the shapes they read,
from the store Agora's seeding filled (the same nx-27017), with aiohttp and python-socketio
on one port, as Agora's edge. SOCKETS names what it runs on (`SOCKET_SERVERS`):
- "transport", the first floor: Agora's transport (`agora.realtime.transport`: uncompressed
  websockets, one encoding written to every socket of a room, rooms over Redis), libuv's
  loop, orjson and the edge's clock for full cycle collections;
- "stock", the second floor: what a user would write instead: python-socketio's
  `AsyncServer` as it comes (its own rooms in the process, the standard library's json, a
  frame written per recipient as the library does), asyncio's own loop, the collector by
  count, the standard library's json for the HTTP replies too.
Either does the least a server could for each call:
- one store command for each HTTP call (the read or the write the call is about), none for
  the socket's events but the connect (the person's chats, to enter their rooms);
- auth keys from one read of them all at its start, kept in memory (never a command);
- a message stored is sent to its chat's room; typing to the tabs showing the chat.
No permissions, counters, unseen counts, marks, pushes, Ray, order or dedupe. What holds it
is the frameworks' own cost per call and per frame, the store's per command, and the load
generator beside it on the same cores: no server on this stack holds more people on this
machine doing less for them. `GET COMMANDS_PATH` answers the store commands it has started
(pymongo's count of them), for the bench's store commands per HTTP call.
"""

import asyncio
import json
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import socketio
import uvloop
from aiohttp import web
from pymongo import AsyncMongoClient, monitoring

from agora.core import json_text
from agora.core.chat.constants import SEND_REPLY_OK
from agora.core.chat.rooms import viewer_room
from agora.core.signing import hash_secret
from agora.realtime.transport import (
    CheckedSocketServer,
    EdgePacket,
    RoomChannelManager,
    edge_transports,
)
from agora.tools.garbage import collecting

PAGE = 20
UPLOAD_PATH = "/naive-upload"
COMMANDS_PATH = "/naive/store-commands"
# As often as the edge collects reference cycles fully (agora/tools/garbage.py's clock).
FULL_COLLECTION_SECONDS = 600


@dataclass(frozen=True)
class Sockets:
    """A socket server mounted by the naive server, and how it puts a socket in rooms."""

    server: socketio.AsyncServer
    enter_rooms: Callable[[str, list[str]], Awaitable[None]]


def transport_sockets(redis_url: str, redis_prefix: str) -> Sockets:
    manager = RoomChannelManager(redis_url, f"{redis_prefix}naive-socketio")
    server = CheckedSocketServer(
        async_mode="aiohttp",
        serializer=EdgePacket,
        client_manager=manager,
        cors_allowed_origins="*",
    )
    edge_transports(server)

    async def enter_rooms(sid: str, rooms: list[str]) -> None:
        await manager.enter_rooms(sid, "/", rooms)

    return Sockets(server, enter_rooms)


def stock_sockets(_redis_url: str, _redis_prefix: str) -> Sockets:
    """python-socketio as its documentation's first example has it: one process, its rooms
    in memory."""
    server = socketio.AsyncServer(async_mode="aiohttp", cors_allowed_origins="*")

    async def enter_rooms(sid: str, rooms: list[str]) -> None:
        for room in rooms:
            await server.enter_room(sid, room)

    return Sockets(server, enter_rooms)


@dataclass(frozen=True)
class SocketServer:
    """What a floor runs on besides its handlers: its sockets, its JSON, its loop and its
    collector."""

    sockets: Callable[[str, str], Sockets]  # (Redis URL, prefix) -> the mounted server
    dumps: Callable[[Any], str]
    loads: Callable[[str | bytes], Any]
    new_loop: Callable[[], asyncio.AbstractEventLoop] | None  # None: asyncio's own
    collector_clock: bool  # full cycle collections on the edge's clock, not by count


SOCKET_SERVERS = {
    "transport": SocketServer(
        transport_sockets, json_text.dumps_text, json_text.loads, uvloop.new_event_loop, True
    ),
    # Stored documents hold dates and binary data; their text is enough here.
    "stock": SocketServer(stock_sockets, partial(json.dumps, default=str), json.loads, None, False),
}


class CommandCount(monitoring.CommandListener):
    """The store commands this process started (each page of a cursor is one)."""

    def __init__(self) -> None:
        self.started_commands = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        self.started_commands += 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class Naive:
    def __init__(self, mongo_url: str, database: str, runs_on: SocketServer) -> None:
        self.commands = CommandCount()
        self.client: AsyncMongoClient = AsyncMongoClient(mongo_url, event_listeners=[self.commands])
        self.db = self.client[database]
        self.users: dict[str, str] = {}  # auth key hash -> user id
        self.runs_on = runs_on

    def reply(self, value: Any) -> web.Response:
        return web.json_response(value, dumps=self.runs_on.dumps)

    async def body(self, request: web.Request) -> Any:
        return await request.json(loads=self.runs_on.loads)

    async def load_keys(self, _: web.Application) -> None:
        async for key in self.db["auth_keys"].find({}, {"user_id": 1}):
            self.users[key["_id"]] = key["user_id"]

    async def close(self, _: web.Application) -> None:
        await self.client.close()

    def user_of(self, request: web.Request) -> str:
        key = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user_id = self.users.get(hash_secret(key))
        if user_id is None:
            raise web.HTTPUnauthorized()
        return user_id

    async def feed(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        query: dict[str, Any] = {"group_id": body.get("group_id")}
        if body.get("cursor"):
            query["feed_key"] = {"$lt": body["cursor"]}
        if body.get("search_text"):
            query["$text"] = {"$search": body["search_text"]}
        projection = {"title": 1, "route_id": 1, "feed_key": 1}
        items = await (
            self.db["items"].find(query, projection).sort("feed_key", -1).limit(PAGE).to_list()
        )
        cursor = items[-1]["feed_key"] if len(items) == PAGE else None
        return self.reply({"items": items, "next_cursor": cursor})

    async def chats(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        chats = await (
            self.db["session_users"]
            .find({"user_id": user_id}, {"session_id": 1})
            .sort("updated_at", -1)
            .limit(PAGE)
            .to_list()
        )
        return self.reply({"chats": chats})

    async def messages(self, request: web.Request) -> web.Response:
        self.user_of(request)
        body = await self.body(request)
        found = await (
            self.db["messages"]
            .find({"dest_session_id": body.get("session_id")}, {"payload": 1, "created_at": 1})
            .sort("created_at", -1)
            .limit(PAGE)
            .to_list()
        )
        return self.reply({"inbox_messages": found})

    async def send(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await self.body(request)
        message = {
            "_id": uuid.uuid4().hex[:24],
            "dest_session_id": body["dest_session_id"],
            "src_id": user_id,
            "local_id": body.get("local_id"),
            "created_at": int(time.time() * 1000),
            "payload": body.get("payload", ""),
        }
        await self.db["naive_messages"].insert_one(message)
        await self.sio.emit("message", message, room=message["dest_session_id"])
        return self.reply({"type": SEND_REPLY_OK, "inbox_message": message})

    async def react(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await self.body(request)
        await self.db["messages"].update_one(
            {"dest_session_id": body.get("session_id"), "created_at": body.get("created_at")},
            {"$set": {f"data.reactions.{user_id}": body.get("emoji")}},
        )
        return self.reply({"ok": True})

    async def edit(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await self.body(request)
        mine = {"dest_session_id": body.get("session_id"), "created_at": body.get("created_at")}
        change = {"payload": body.get("payload"), "edited_at": int(time.time() * 1000)}
        await self.db["naive_messages"].update_one({**mine, "src_id": user_id}, {"$set": change})
        return self.reply({"message": {**mine, **change}})

    async def search(self, request: web.Request) -> web.Response:
        self.user_of(request)
        body = await self.body(request)
        query = {"dest_session_id": body.get("session_id"), "$text": {"$search": body.get("q")}}
        found = await self.db["messages"].find(query, {"payload": 1}).limit(PAGE).to_list()
        return self.reply({"inbox_messages": found})

    async def route(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        route_id = request.match_info["route_id"]
        if request.query.get("action") == "share":
            shared = {"_id": uuid.uuid4().hex[:24], "parent": route_id, "user_id": user_id}
            await self.db["naive_routes"].insert_one(shared)
            return self.reply({"route": shared})
        return self.reply({"route": await self.db["routes"].find_one({"_id": route_id})})

    async def post(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await self.body(request)
        item = {"_id": uuid.uuid4().hex[:24], "user_id": user_id, **body}
        await self.db["naive_items"].insert_one(item)
        return self.reply({"item": item})

    async def upload_url(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await self.body(request)
        upload = {"_id": uuid.uuid4().hex[:24], "user_id": user_id, **body}
        await self.db["naive_uploads"].insert_one(upload)
        return self.reply({"upload_data": {"url": f"{UPLOAD_PATH}/{upload['_id']}"}})

    async def upload(self, request: web.Request) -> web.Response:
        self.user_of(request)
        data = await request.read()
        uploads = self.db["naive_uploads"]
        await uploads.update_one({"_id": request.match_info["upload_id"]}, {"$set": {"data": data}})
        return self.reply({})

    async def profile(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        return self.reply(
            {"user_wallets": await self.db["wallets"].find({"user_id": user_id}).to_list()}
        )

    async def ledger(self, request: web.Request) -> web.Response:
        self.user_of(request)
        query = {"user_id": request.query.get("wallet_user_id")}
        return self.reply(
            {"ledger": await self.db["ledger_entries"].find(query).limit(PAGE).to_list()}
        )

    async def store_commands(self, _: web.Request) -> web.Response:
        return self.reply({"commands": self.commands.started_commands})

    def attach(self, app: web.Application, sockets: Sockets) -> None:
        sio = self.sio = sockets.server

        @sio.event
        async def connect(sid: str, environ: dict, auth: Any) -> None:
            key = auth.get("auth_key", "") if isinstance(auth, dict) else ""
            user_id = self.users.get(hash_secret(key))
            if user_id is None:
                raise socketio.exceptions.ConnectionRefusedError("unknown key")
            chats = self.db["session_users"].find({"user_id": user_id}, {"session_id": 1})
            await sockets.enter_rooms(sid, [chat["session_id"] for chat in await chats.to_list()])

        def ok(*_: Any) -> dict[str, Any]:
            return {"ok": True}

        @sio.on("viewing")
        async def viewing(sid: str, data: dict) -> dict[str, Any]:
            async with sio.session(sid) as session:
                before, session["viewing"] = session.get("viewing"), data.get("session_id")
            if before is not None:
                await sio.leave_room(sid, viewer_room(before))
            if session["viewing"] is not None:
                await sio.enter_room(sid, viewer_room(session["viewing"]))
            return ok()

        @sio.on("typing")
        async def typing(sid: str, data: dict) -> dict[str, Any]:
            session_id = data.get("session_id")
            await sio.emit("typing", {"session_id": session_id}, room=viewer_room(session_id))
            return ok()

        for event in ("join", "delivered", "read", "leave"):
            sio.on(event, ok)
        sio.on("unseen", lambda *_: {"unseen": {}})
        sio.attach(app)


def build(
    mongo_url: str, database: str, redis_url: str, redis_prefix: str, runs_on: SocketServer
) -> web.Application:
    naive = Naive(mongo_url, database, runs_on)
    app = web.Application()
    app.router.add_post("/api/feed", naive.feed)
    app.router.add_post("/user/chats", naive.chats)
    app.router.add_post("/session/messages", naive.messages)
    app.router.add_post("/session/send", naive.send)
    app.router.add_post("/session/message/react", naive.react)
    app.router.add_post("/session/message/edit", naive.edit)
    app.router.add_post("/session/search", naive.search)
    app.router.add_get("/api/r/{route_id}", naive.route)
    app.router.add_post("/api/item", naive.post)
    app.router.add_post("/get_upload_url", naive.upload_url)
    app.router.add_put(f"{UPLOAD_PATH}/{{upload_id}}", naive.upload)
    app.router.add_get("/api/user/profile", naive.profile)
    app.router.add_get("/api/wallet/ledger", naive.ledger)
    app.router.add_get(COMMANDS_PATH, naive.store_commands)
    app.on_startup.append(naive.load_keys)
    app.on_cleanup.append(naive.close)
    naive.attach(app, runs_on.sockets(redis_url, redis_prefix))
    if runs_on.collector_clock:

        async def collected(_: web.Application):
            async with collecting(FULL_COLLECTION_SECONDS):
                yield

        app.cleanup_ctx.append(collected)
    return app


def main() -> None:
    mongo_url, database, redis_url, redis_prefix, sockets, port = sys.argv[1:7]
    runs_on = SOCKET_SERVERS[sockets]
    app = build(mongo_url, database, redis_url, redis_prefix, runs_on)
    loop = runs_on.new_loop() if runs_on.new_loop else None
    web.run_app(app, host="127.0.0.1", port=int(port), print=None, loop=loop)


if __name__ == "__main__":
    main()
