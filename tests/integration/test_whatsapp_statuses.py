"""Statuses against the real store: one that comes before our wamid is kept and applied when
the wamid is recorded, and statuses racing on one message all land."""

import asyncio
import uuid

import pytest
from pymongo import AsyncMongoClient

from agora.services.events import WhatsAppStatusReceived
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.store.mongo import ensure_indexes
from agora.store.whatsapp_statuses import WhatsAppFlags


class Room:
    """Records what the service announces (the emitter's place)."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str, dict]] = []

    async def to_session(self, session_id: str, event: str, data: dict) -> None:
        self.heard.append((session_id, event, data))


@pytest.fixture
async def statuses(mongo_url):
    client = AsyncMongoClient(mongo_url)
    db = client[f"statuses_{uuid.uuid4().hex[:8]}"]
    flags = WhatsAppFlags(db)
    await ensure_indexes(db, [flags])
    room = Room()
    yield WhatsAppStatuses(flags, room), flags, db["messages"], room
    await client.drop_database(db.name)
    await client.close()


def received(
    wamid: str, status: str, timestamp: int, channel: str = "channel"
) -> WhatsAppStatusReceived:
    raw = {"id": wamid, "status": status, "timestamp": str(timestamp)}
    return WhatsAppStatusReceived(channel, raw)


async def stored(messages, wamid: str | None = None) -> str:
    message_id = uuid.uuid4().hex
    data = {"wa": {"kind": "text", **({"wamid": wamid, "channel_id": "channel"} if wamid else {})}}
    await messages.insert_one(
        {
            "_id": message_id,
            "dest_session_id": "wa_c_1",
            "created_at": 5,
            "type": 1018,
            "data": data,
            "info": {},
        }
    )
    return message_id


async def test_a_status_before_the_wamid_is_applied_when_it_is_recorded(statuses):
    service, flags, messages, room = statuses
    message_id = await stored(messages)
    await service.status_received(received("wamid.early", "delivered", 1_700_000_001))
    await service.status_received(received("wamid.early", "delivered", 1_700_000_001))
    assert room.heard == []
    # The send records the wamid with s1, then applies what was kept.
    recorded = {"data.wa.wamid": "wamid.early", "data.wa.channel_id": "channel"}
    await flags.set_once(message_id, {"s1": 1}, also=recorded)
    await service.wamid_recorded("channel", "wamid.early")
    message = await messages.find_one({"_id": message_id})
    assert message["info"] == {"s1": 1, "wa_d": 1_700_000_001_000}
    assert [event for _, event, _ in room.heard] == ["wa_status"]
    assert await flags.early.count_documents({}) == 0
    # Nothing kept is applied twice.
    await service.wamid_recorded("channel", "wamid.early")
    assert len(room.heard) == 1


async def test_statuses_racing_on_one_message_all_land(statuses):
    service, _, messages, room = statuses
    message_id = await stored(messages, "wamid.race")
    await asyncio.gather(
        *(
            service.status_received(received("wamid.race", kind, 1_700_000_000 + n))
            for n, kind in enumerate(("read", "sent", "delivered", "read", "sent"))
        )
    )
    info = (await messages.find_one({"_id": message_id}))["info"]
    assert set(info) == {"wa_s", "wa_d", "wa_r"}
    # Each flag moved once, so three announcements, each with the flags merged so far.
    assert len(room.heard) == 3
    assert {frozenset(data["info"]) for _, _, data in room.heard} >= {
        frozenset({"wa_s", "wa_d", "wa_r"})
    }


async def test_a_channel_reports_only_on_its_own_messages(statuses):
    service, _, messages, room = statuses
    message_id = await stored(messages, "wamid.theirs")
    await service.status_received(received("wamid.theirs", "read", 1_700_000_000, "another"))
    assert (await messages.find_one({"_id": message_id}))["info"] == {}
    assert room.heard == []
