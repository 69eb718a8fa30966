"""A deleted message's files against a real edge, Ray shards, the MongoDB-wire server and
Redis: gone from the upload store once nothing else shows them."""

import io

import pytest
from PIL import Image

from tests.integration.helpers import Member, member, new_group
from tests.integration.helpers import send_text as _send

pytestmark = pytest.mark.usefixtures("ray_cluster")


async def _picture(person: Member) -> dict:
    """A stored picture of `person`'s: its url and thumbnail's."""
    out = io.BytesIO()
    Image.new("RGB", (900, 600), "teal").save(out, "JPEG")
    link = await person.call("/get_upload_url", {"file_mime_type": "image/jpeg"})
    upload = link["upload_data"]
    reply = await person.client.put(upload["url"], data=out.getvalue(), headers=upload["headers"])
    stored = await reply.json()
    assert reply.status == 200, stored
    assert stored["thumbnail"]
    return stored


async def _served(person: Member, picture: dict) -> tuple[int, int]:
    """The statuses of the picture and of its thumbnail."""
    statuses = []
    for url in (picture["file_url"], picture["thumbnail"]):
        async with person.client.get(url) as reply:
            statuses.append(reply.status)
    return statuses[0], statuses[1]


async def _delete(person: Member, message: dict) -> None:
    body = {"session_id": message["dest_session_id"], "created_at": message["created_at"]}
    await person.call("/session/message/delete", body)


async def test_a_deleted_messages_pictures_go_unless_another_message_or_a_post_shows_them(
    chat_client, smtp_sink
):
    ada = await member(chat_client, smtp_sink, "Ada")
    group_id = await new_group(ada)
    alone, shared, posted = [await _picture(ada) for _ in range(3)]

    async def sent(*pictures: dict) -> dict:
        files = [p["file_url"] for p in pictures]
        return (await _send(ada, group_id, "look", payload1=files))["inbox_message"]

    first, second = await sent(alone, shared), await sent(shared)
    await ada.post_item(group_id, "Teal wall paint", files=[posted["file_url"]])
    third = await sent(posted)

    await _delete(ada, first)
    assert await _served(ada, alone) == (404, 404)
    # Still in the second message.
    assert await _served(ada, shared) == (200, 200)
    await _delete(ada, second)
    assert await _served(ada, shared) == (404, 404)
    await _delete(ada, third)
    assert await _served(ada, posted) == (200, 200)
    # A deleted picture cannot be sent again (a send's refusal: `type: -1`).
    again = await _send(ada, group_id, "again", payload1=[alone["file_url"]])
    assert (again["type"], list(again["errors"])) == (-1, ["files"]), again


async def test_a_picture_also_shown_as_a_profile_picture_stays(chat_client, smtp_sink):
    ada = await member(chat_client, smtp_sink, "Ada")
    group_id = await new_group(ada)
    picture = await _picture(ada)
    message = (await _send(ada, group_id, "me", payload1=[picture["file_url"]]))["inbox_message"]
    await ada.call("/api/user/profile?action=update", {"image": picture["file_url"]})
    await _delete(ada, message)
    assert await _served(ada, picture) == (200, 200)
