"""A group's WhatsApp channel: connected by its admins against the Graph API (stand-in),
its secrets sealed at rest and never shown."""

import json
import logging

import pytest
from pymongo import AsyncMongoClient

from agora.core.sealing import SecretBox, Unsealable
from tests.integration.helpers import bearer, member, new_group

# The WhatsApp tests' edge, of the chat tests' deployment: a join posts a notice, which on a
# worker whose Ray runs started a shard process for a deployment of the test's own.
from tests.integration.whatsapp_setup import business_edge as business_edge


def connect_body(number, **changes) -> dict:
    return {
        "phone_number_id": number.phone_number_id,
        "business_account_id": number.business_account_id,
        "access_token": number.access_token,
        "app_secret": "app-secret-0123456789abcdef",
        "verify_token": "verify-me-please",
        **changes,
    }


def assert_no_secret(reply: dict, *secrets: str) -> None:
    text = json.dumps(reply)
    for secret in secrets:
        assert secret not in text


async def test_an_admin_connects_updates_and_switches_the_channel(
    edge, smtp_sink, whatsapp_standin
):
    admin = await member(edge, smtp_sink, "Admin")
    group_id = await new_group(admin)
    path = f"/api/groups/{group_id}/whatsapp"
    assert await admin.get(path) == {"channel": None}

    number = whatsapp_standin.add_number(display_phone_number="+1 555-0123")
    body = connect_body(number)
    connected = (await admin.call(path, body))["channel"]
    assert connected["display_phone_number"] == "+1 555-0123"
    assert connected["enabled"] is True
    assert connected["webhook_url"].endswith("/webhooks/whatsapp")
    assert connected["has_access_token"] and connected["has_app_secret"]
    assert connected["has_verify_token"]
    secrets = (number.access_token, body["app_secret"], body["verify_token"])
    assert_no_secret(connected, *secrets)
    assert_no_secret(await admin.get(path), *secrets)

    # An update without secrets keeps them (the number is checked with the kept token).
    kept = await admin.call(path, {**body, "access_token": "", "app_secret": None})
    assert kept["channel"]["has_access_token"] and kept["channel"]["_id"] == connected["_id"]

    assert (await admin.call(f"{path}/disable"))["channel"]["enabled"] is False
    assert (await admin.call(f"{path}/enable"))["channel"]["enabled"] is True


async def test_secrets_are_sealed_at_rest(edge, smtp_sink, whatsapp_standin, mongo_url):
    admin = await member(edge, smtp_sink, "Admin")
    group_id = await new_group(admin)
    number = whatsapp_standin.add_number()
    body = connect_body(number)
    await admin.call(f"/api/groups/{group_id}/whatsapp", body)
    mongo = AsyncMongoClient(mongo_url)
    stored = await mongo["agora_test"]["whatsapp_channels"].find_one({"group_id": group_id})
    await mongo.close()
    secrets = (body["access_token"], body["app_secret"], body["verify_token"])
    assert_no_secret({k: v for k, v in stored.items() if k != "_id"}, *secrets)
    assert stored["phone_number_id"] == number.phone_number_id
    assert set(stored["secrets"]) == {"access_token", "app_secret", "verify_token"}


def test_a_sealed_secret_opens_only_in_its_place_and_under_its_key():
    box = SecretBox("k" * 40, "test")
    sealed = box.seal("token", "a/access_token")
    assert box.open(sealed, "a/access_token") == "token"
    with pytest.raises(Unsealable):
        box.open(sealed, "b/access_token")
    with pytest.raises(Unsealable):
        SecretBox("x" * 40, "test").open(sealed, "a/access_token")
    with pytest.raises(Unsealable):
        box.open(sealed[:-4] + "AAAA", "a/access_token")


async def test_only_admins_see_or_change_the_channel(edge, smtp_sink, whatsapp_standin):
    admin = await member(edge, smtp_sink, "Admin")
    stranger = await member(edge, smtp_sink, "Stranger")
    group_id = await new_group(admin, is_public=True)
    await stranger.call("/api/group?action=join", {"group_id": group_id})
    path = f"/api/groups/{group_id}/whatsapp"
    number = whatsapp_standin.add_number()
    await stranger.get(path, status=403)
    await stranger.call(path, connect_body(number), status=403)
    await stranger.call(f"{path}/disable", status=403)
    assert (await edge.get(path)).status == 401
    await admin.get("/api/groups/no-such-group/whatsapp", status=404)


async def test_invalid_connects_answer_400_per_field(edge, smtp_sink, whatsapp_standin):
    admin = await member(edge, smtp_sink, "Admin")
    group_id = await new_group(admin)
    path = f"/api/groups/{group_id}/whatsapp"
    number = whatsapp_standin.add_number()

    missing = await admin.call(path, {}, status=400)
    assert set(missing["errors"]) == {
        "phone_number_id",
        "business_account_id",
        "access_token",
        "app_secret",
        "verify_token",
    }
    wrong = await admin.call(path, connect_body(number, phone_number_id="12a"), status=400)
    assert "phone_number_id" in wrong["errors"]
    typed = await admin.call(path, connect_body(number, app_secret=12), status=400)
    assert typed["errors"] == {"app_secret": "Must be text"}
    extra = await admin.call(path, {**connect_body(number), "x": 1}, status=400)
    assert "x" in extra["errors"]
    spaced = await admin.call(path, connect_body(number, verify_token="a b"), status=400)
    assert "verify_token" in spaced["errors"]

    bad_token = await admin.call(path, connect_body(number, access_token="EAAGwrong"), status=400)
    assert "access_token" in bad_token["errors"]
    unknown = await admin.call(path, connect_body(number, phone_number_id="999"), status=400)
    assert "phone_number_id" in unknown["errors"]
    whatsapp_standin.fail_next(status=502, only="phone_number")
    assert (
        await edge.post(path, json=connect_body(number), headers=bearer(admin.key))
    ).status == 503
    assert (await admin.get(path)) == {"channel": None}

    # The same number cannot serve two groups.
    await admin.call(path, connect_body(number))
    other = await new_group(admin)
    taken = await admin.call(f"/api/groups/{other}/whatsapp", connect_body(number), status=400)
    assert "phone_number_id" in taken["errors"]
    await admin.call(f"/api/groups/{other}/whatsapp/enable", status=404)


ODD_VALUES = [None, 0, -1, 1.5, True, [], ["1"], {}, {"a": 1}, "", " ", "x" * 5000, "é✓", "\x00\n"]


async def test_any_value_in_any_field_is_answered_without_a_server_error(
    edge, smtp_sink, whatsapp_standin
):
    admin = await member(edge, smtp_sink, "Admin")
    group_id = await new_group(admin)
    path = f"/api/groups/{group_id}/whatsapp"
    number = whatsapp_standin.add_number()
    for name in connect_body(number):
        for value in ODD_VALUES:
            reply = await edge.post(
                path, json=connect_body(number, **{name: value}), headers=bearer(admin.key)
            )
            body = await reply.json()
            assert reply.status in (200, 400), (name, value, reply.status, body)
            if reply.status == 400:
                assert name in body["errors"], (name, value, body)
    for raw in (b"[]", b"{", b"null", b'"text"', b"{}" * 3):
        headers = {**bearer(admin.key), "Content-Type": "application/json"}
        reply = await edge.post(path, data=raw, headers=headers)
        assert reply.status == 400, raw


async def test_secrets_never_reach_the_logs(edge, smtp_sink, whatsapp_standin, caplog):
    caplog.set_level(logging.DEBUG)
    admin = await member(edge, smtp_sink, "Admin")
    group_id = await new_group(admin)
    path = f"/api/groups/{group_id}/whatsapp"
    number = whatsapp_standin.add_number()
    body = connect_body(number)
    await admin.call(path, body)
    await admin.call(path, connect_body(number, access_token="EAAGnot-the-right-one"), status=400)
    whatsapp_standin.fail_next(status=500, only="phone_number")
    await edge.post(path, json=body, headers=bearer(admin.key))
    await edge.post("/webhooks/whatsapp", data=b"{}", headers={"X-Hub-Signature-256": "sha256=0"})
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    for secret in (number.access_token, body["app_secret"], body["verify_token"]):
        assert secret not in logged
    assert "EAAGnot-the-right-one" not in logged


async def test_an_address_posting_wrongly_signed_deliveries_is_held_off(client_for):
    edge = await client_for(whatsapp_bad_signatures_per_ip=3)
    headers = {"X-Hub-Signature-256": "sha256=" + "0" * 64}
    statuses = [
        (await edge.post("/webhooks/whatsapp", data=b"{}", headers=headers)).status
        for _ in range(5)
    ]
    assert statuses == [401, 401, 401, 429, 429]
