"""Sessions, profile, logout, error reports and the edge's handling of bad requests."""

import asyncio
import uuid

import pytest
import socketio

from tests.integration.helpers import bearer, login, new_email


async def _socket(client, auth: dict | None) -> socketio.AsyncClient:
    sio = socketio.AsyncClient(reconnection=False)
    await sio.connect(
        str(client.make_url("/")), auth=auth, socketio_path="/socket.io", transports=["websocket"]
    )
    return sio


async def test_logout_revokes_the_key_for_http_and_sockets(client, smtp_sink):
    session = await login(client, smtp_sink, new_email())
    key = session["allspark_auth_key"]
    connected = await _socket(client, {"auth_key": key})
    disconnected = asyncio.Event()
    connected.on("disconnect", lambda *args: disconnected.set())

    assert (await client.post("/api/user/logout", headers=bearer(key))).status == 200

    await asyncio.wait_for(disconnected.wait(), timeout=10)
    after = await client.get("/api/user/profile", headers=bearer(key))
    assert after.status == 401
    assert (await after.json())["need_user"] is True
    refused = socketio.AsyncClient(reconnection=False)
    reasons = []
    refused.on("connect_error", reasons.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await refused.connect(
            str(client.make_url("/")), auth={"auth_key": key}, transports=["websocket"]
        )
    assert reasons[0]["data"] == {"need_user": True}


async def test_logout_on_one_edge_closes_sockets_on_another(client_for, smtp_sink):
    shared = {"redis_prefix": f"test:{uuid.uuid4().hex[:12]}:"}
    first, second = await client_for(**shared), await client_for(**shared)
    key = (await login(first, smtp_sink, new_email()))["allspark_auth_key"]
    # The second edge has used the key over HTTP too, so it keeps a copy of it.
    assert (await second.get("/api/user/profile", headers=bearer(key))).status == 200
    on_second = await _socket(second, {"auth_key": key})
    disconnected = asyncio.Event()
    on_second.on("disconnect", lambda *args: disconnected.set())

    assert (await first.post("/api/user/logout", headers=bearer(key))).status == 200

    await asyncio.wait_for(disconnected.wait(), timeout=10)
    assert (await second.get("/api/user/profile", headers=bearer(key))).status == 401


async def test_visitor_gets_a_stable_guest_identity_and_a_socket(client):
    me = await client.get("/user/me")
    body = await me.json()
    assert body["user"] is None
    guest_id = body["guest_user"]["_id"]
    again = await (await client.get("/user/me")).json()
    assert again["guest_user"]["_id"] == guest_id
    visitor = await _socket(client, None)
    assert visitor.connected
    await visitor.disconnect()


async def test_a_cookie_alone_never_authorizes(client, smtp_sink):
    key = (await login(client, smtp_sink, new_email()))["allspark_auth_key"]
    client.session.cookie_jar.update_cookies({"auth_key": key})
    reply = await client.post("/api/user/logout")
    assert reply.status == 401
    still = await client.get("/api/user/profile", headers=bearer(key))
    assert still.status == 200


async def test_profile_update_changes_name_and_image(client, smtp_sink):
    key = (await login(client, smtp_sink, new_email()))["allspark_auth_key"]
    reply = await client.post(
        "/api/user/profile?action=update",
        json={"name": "Ada L.", "image": "/uploads/65f0c0ffee0123456789abcd.jpg"},
        headers=bearer(key),
    )
    user = (await reply.json())["user"]
    assert (user["name"], user["image"]) == ("Ada L.", "/uploads/65f0c0ffee0123456789abcd.jpg")
    bad = await client.post(
        "/api/user/profile?action=update",
        json={"image": "javascript:alert(1)", "name": "Changed"},
        headers=bearer(key),
    )
    assert bad.status == 400
    profile = await (await client.get("/api/user/profile", headers=bearer(key))).json()
    assert profile["user"]["name"] == "Ada L."
    [points] = profile["user_wallets"]
    assert (points["wallet_currency"], points["wallet_amount"]) == ("POINTS", 101)


async def test_email_change_is_confirmed_by_a_code_sent_to_the_new_address(client, smtp_sink):
    key = (await login(client, smtp_sink, new_email()))["allspark_auth_key"]
    new_address = new_email()
    asked = await client.post(
        "/api/user/profile?action=update", json={"email_id": new_address}, headers=bearer(key)
    )
    body = await asked.json()
    assert body["require"] == ["otp"]
    assert body["user"]["email_id"] != new_address
    confirmed = await client.post(
        "/api/user/profile?action=update",
        json={"email_id": new_address, "otp": smtp_sink.last_code(new_address)},
        headers=bearer(key),
    )
    assert (await confirmed.json())["user"]["email_id"] == new_address
    again = await login(client, smtp_sink, new_address)
    assert again["user"]["email_id"] == new_address


async def test_email_of_another_account_cannot_be_taken_nor_be_told_before_the_code(
    client, smtp_sink
):
    taken, free = new_email(), new_email()
    await login(client, smtp_sink, taken)
    key = (await login(client, smtp_sink, new_email()))["allspark_auth_key"]
    asked = {}
    for address in (taken, free):
        reply = await client.post(
            "/api/user/profile?action=update", json={"email_id": address}, headers=bearer(key)
        )
        assert reply.status == 200
        body = await reply.json()
        body["data"].pop("sent_to")
        asked[address] = body
    assert asked[taken] == asked[free]
    # Who proves to hold the address learns that it belongs to another account.
    reply = await client.post(
        "/api/user/profile?action=update",
        json={"email_id": taken, "otp": smtp_sink.last_code(taken)},
        headers=bearer(key),
    )
    assert reply.status == 409
    assert "email_id" in (await reply.json())["errors"]


async def test_malformed_bodies_get_clear_errors_and_change_nothing(client, smtp_sink):
    email = new_email()
    cases = [
        (b"{not json", "application/json", 400),
        (b"[1, 2]", "application/json", 400),
        (b'{"email_id": 42}', "application/json", 400),
        (b'{"email_id": "%s", "admin": true}' % email.encode(), "application/json", 400),
        (b"email_id=x", "application/x-www-form-urlencoded", 400),
        (b'{"email_id": "' + b"a" * 400_000 + b'"}', "application/json", 413),
    ]
    for raw, content_type, status in cases:
        reply = await client.post(
            "/api/user/login", data=raw, headers={"Content-Type": content_type}
        )
        assert reply.status == status, raw[:40]
        assert (await reply.json())["errors"]
    assert smtp_sink.to(email) == []
    typed = await client.post("/api/user/login", json={"email_id": email, "otp": 123456})
    assert (await typed.json())["errors"] == {"otp": "Must be text"}
    unknown = await client.post("/api/user/login", json={"email_id": email, "admin": True})
    assert (await unknown.json())["errors"] == {"admin": "Unknown field"}


async def test_unknown_api_paths_get_json_404_and_pages_get_the_app(client):
    for method, path in [("GET", "/api/nothing"), ("POST", "/api/nothing"), ("POST", "/nope")]:
        reply = await client.request(method, path)
        assert reply.status == 404
        assert "errors" in await reply.json()
    page = await client.get("/profile")
    assert page.status == 200
    assert "<div id=root>" in await page.text()
    asset = await client.get("/assets/app-1234.js")
    assert "immutable" in asset.headers["Cache-Control"]
    escape = await client.get("/../pyproject.toml")
    assert "<div id=root>" in await escape.text()


async def test_client_error_reports_are_stored_and_bounded(client):
    ok = await client.post(
        "/jserror",
        json={"stacktrace_string": "TypeError: x", "description": "d", "error_details": {"a": 1}},
    )
    assert (await ok.json()) == {"success": True}
    huge = await client.post("/jserror", json={"stacktrace_string": "x" * 40_000})
    assert huge.status == 413
    missing = await client.post("/jserror", json={"description": "no stack"})
    assert (await missing.json())["errors"] == {"stacktrace_string": "This field is required"}


async def test_realtime_connect_info_names_the_socket_path(client, smtp_sink):
    visitor = await (await client.get("/realtime/connect")).json()
    assert visitor["path"] == "/socket.io"
    assert visitor["user_id"] is None
    session = await login(client, smtp_sink, new_email())
    info = await client.get("/realtime/connect", headers=bearer(session["allspark_auth_key"]))
    assert (await info.json())["user_id"] == session["user"]["_id"]
