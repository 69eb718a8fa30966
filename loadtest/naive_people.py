"""The floor the `ceiling` scenario measures Agora against: a naive server for the people of
docs/load-model.md.

    python -m loadtest.naive_people MONGO_URL DATABASE REDIS_URL REDIS_PREFIX PORT

It answers every call loadtest/people.py and the Node crowd make, in the shapes they read,
from the store Agora's seeding filled (the same nx-27017), on the same frameworks and
transport as Agora's edge: aiohttp and python-socketio on one port, Agora's transport
(`agora.realtime.transport`: uncompressed websockets, one encoding written to every socket
of a room, rooms over Redis), libuv's loop, orjson and the edge's clock for full cycle
collections. A stock python-socketio server (a task per recipient, compressed frames) held
fewer people than Agora did. It does the least a server could for each call:
- one store command for each HTTP call (the read or the write the call is about), none for
  the socket's events but the connect (the person's chats, to enter their rooms);
- auth keys from one read of them all at its start, kept in memory (never a command);
- a message stored is sent to its chat's room; typing to the tabs showing the chat.
No permissions, counters, unseen counts, marks, pushes, Ray, order or dedupe. What holds it
is the frameworks' own cost per call and per frame, the store's per command, and the load
generator beside it on the same cores: no server on this stack holds more people on this
machine doing less for them.
"""

import sys
import time
import uuid
from typing import Any

import uvloop
from aiohttp import web
from pymongo import AsyncMongoClient

from agora.core import json_text
from agora.core.chat.constants import SEND_REPLY_OK
from agora.core.chat.rooms import viewer_room
from agora.core.signing import hash_secret
from agora.realtime.transport import (
    CheckedSocketServer,
    ConnectionRefused,
    EdgePacket,
    RoomChannelManager,
    edge_transports,
)
from agora.tools.garbage import collecting

PAGE = 20
UPLOAD_PATH = "/naive-upload"
# As often as the edge collects reference cycles fully (agora/tools/garbage.py's clock).
FULL_COLLECTION_SECONDS = 600


def reply(value: Any) -> web.Response:
    return web.json_response(value, dumps=json_text.dumps_text)


class Naive:
    def __init__(self, mongo_url: str, database: str) -> None:
        self.client: AsyncMongoClient = AsyncMongoClient(mongo_url)
        self.db = self.client[database]
        self.users: dict[str, str] = {}  # auth key hash -> user id

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
        body = await request.json(loads=json_text.loads)
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
        return reply({"items": items, "next_cursor": cursor})

    async def chats(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        chats = await (
            self.db["session_users"]
            .find({"user_id": user_id}, {"session_id": 1})
            .sort("updated_at", -1)
            .limit(PAGE)
            .to_list()
        )
        return reply({"chats": chats})

    async def messages(self, request: web.Request) -> web.Response:
        self.user_of(request)
        body = await request.json(loads=json_text.loads)
        found = await (
            self.db["messages"]
            .find({"dest_session_id": body.get("session_id")}, {"payload": 1, "created_at": 1})
            .sort("created_at", -1)
            .limit(PAGE)
            .to_list()
        )
        return reply({"inbox_messages": found})

    async def send(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await request.json(loads=json_text.loads)
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
        return reply({"type": SEND_REPLY_OK, "inbox_message": message})

    async def react(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await request.json(loads=json_text.loads)
        await self.db["messages"].update_one(
            {"dest_session_id": body.get("session_id"), "created_at": body.get("created_at")},
            {"$set": {f"data.reactions.{user_id}": body.get("emoji")}},
        )
        return reply({"ok": True})

    async def edit(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await request.json(loads=json_text.loads)
        mine = {"dest_session_id": body.get("session_id"), "created_at": body.get("created_at")}
        change = {"payload": body.get("payload"), "edited_at": int(time.time() * 1000)}
        await self.db["naive_messages"].update_one({**mine, "src_id": user_id}, {"$set": change})
        return reply({"message": {**mine, **change}})

    async def search(self, request: web.Request) -> web.Response:
        self.user_of(request)
        body = await request.json(loads=json_text.loads)
        query = {"dest_session_id": body.get("session_id"), "$text": {"$search": body.get("q")}}
        found = await self.db["messages"].find(query, {"payload": 1}).limit(PAGE).to_list()
        return reply({"inbox_messages": found})

    async def route(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        route_id = request.match_info["route_id"]
        if request.query.get("action") == "share":
            shared = {"_id": uuid.uuid4().hex[:24], "parent": route_id, "user_id": user_id}
            await self.db["naive_routes"].insert_one(shared)
            return reply({"route": shared})
        return reply({"route": await self.db["routes"].find_one({"_id": route_id})})

    async def post(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await request.json(loads=json_text.loads)
        item = {"_id": uuid.uuid4().hex[:24], "user_id": user_id, **body}
        await self.db["naive_items"].insert_one(item)
        return reply({"item": item})

    async def upload_url(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        body = await request.json(loads=json_text.loads)
        upload = {"_id": uuid.uuid4().hex[:24], "user_id": user_id, **body}
        await self.db["naive_uploads"].insert_one(upload)
        return reply({"upload_data": {"url": f"{UPLOAD_PATH}/{upload['_id']}"}})

    async def upload(self, request: web.Request) -> web.Response:
        self.user_of(request)
        data = await request.read()
        uploads = self.db["naive_uploads"]
        await uploads.update_one({"_id": request.match_info["upload_id"]}, {"$set": {"data": data}})
        return reply({})

    async def profile(self, request: web.Request) -> web.Response:
        user_id = self.user_of(request)
        return reply(
            {"user_wallets": await self.db["wallets"].find({"user_id": user_id}).to_list()}
        )

    async def ledger(self, request: web.Request) -> web.Response:
        self.user_of(request)
        query = {"user_id": request.query.get("wallet_user_id")}
        return reply({"ledger": await self.db["ledger_entries"].find(query).limit(PAGE).to_list()})

    def attach(self, app: web.Application, redis_url: str, redis_prefix: str) -> None:
        manager = RoomChannelManager(redis_url, f"{redis_prefix}naive-socketio")
        sio = CheckedSocketServer(
            async_mode="aiohttp",
            serializer=EdgePacket,
            client_manager=manager,
            cors_allowed_origins="*",
        )
        edge_transports(sio)
        self.sio = sio

        @sio.event
        async def connect(sid: str, environ: dict, auth: Any) -> None:
            key = auth.get("auth_key", "") if isinstance(auth, dict) else ""
            user_id = self.users.get(hash_secret(key))
            if user_id is None:
                raise ConnectionRefused("unknown key")
            chats = self.db["session_users"].find({"user_id": user_id}, {"session_id": 1})
            rooms = [chat["session_id"] for chat in await chats.to_list()]
            await manager.enter_rooms(sid, "/", rooms)

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


def build(mongo_url: str, database: str, redis_url: str, redis_prefix: str) -> web.Application:
    naive = Naive(mongo_url, database)
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
    app.on_startup.append(naive.load_keys)
    app.on_cleanup.append(naive.close)
    naive.attach(app, redis_url, redis_prefix)

    async def collected(_: web.Application):
        async with collecting(FULL_COLLECTION_SECONDS):
            yield

    app.cleanup_ctx.append(collected)
    return app


def main() -> None:
    mongo_url, database, redis_url, redis_prefix, port = sys.argv[1:6]
    app = build(mongo_url, database, redis_url, redis_prefix)
    web.run_app(app, host="127.0.0.1", port=int(port), print=None, loop=uvloop.new_event_loop())


if __name__ == "__main__":
    main()
