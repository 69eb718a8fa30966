"""The naive chat server the `sends` scenario measures Agora against.

    python -m loadtest.naive MONGO_URL DATABASE PORT

aiohttp, one `insert_one` per message into MongoDB (the same nx-27017 as Agora's), then the
reply: no login, no permissions, no order, no dedupe, no counters, no fan-out. It answers
`POST /session/send` like Agora, so the same load generator drives both.
"""

import sys
import time
import uuid
from typing import Any

from aiohttp import web
from pymongo import AsyncMongoClient

from agora.core.chat.constants import MESSAGE_TYPE_CHAT, SEND_REPLY_OK
from loadtest.relay import SEND_PATH

COLLECTION = "naive_messages"


def build(mongo_url: str, database: str) -> web.Application:
    client: AsyncMongoClient = AsyncMongoClient(mongo_url)
    messages = client[database][COLLECTION]

    async def send(request: web.Request) -> web.Response:
        body: dict[str, Any] = await request.json()
        message = {
            "_id": uuid.uuid4().hex[:24],
            "dest_session_id": body["dest_session_id"],
            "local_id": body.get("local_id"),
            "created_at": int(time.time() * 1000),
            "type": MESSAGE_TYPE_CHAT,
            "payload": body.get("payload", ""),
        }
        await messages.insert_one(message)
        return web.json_response({"type": SEND_REPLY_OK, "inbox_message": message})

    async def close(_: web.Application) -> None:
        await client.close()

    app = web.Application()
    app.router.add_post(SEND_PATH, send)
    app.on_cleanup.append(close)
    return app


def main() -> None:
    mongo_url, database, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    web.run_app(build(mongo_url, database), host="127.0.0.1", port=port, print=None)


if __name__ == "__main__":
    main()
