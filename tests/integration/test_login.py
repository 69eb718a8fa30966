import asyncio

from tests.integration.helpers import bearer, login, new_email, request_code


async def test_new_user_is_asked_for_each_missing_step_then_logged_in(client, smtp_sink):
    first = await (await client.post("/api/user/login", json={})).json()
    assert first == {"require": ["email_id_or_phone_number"]}

    email = new_email()
    sent = await request_code(client, email.upper())
    assert sent["require"] == ["otp"]
    assert sent["data"]["sent_to"].endswith("@example.org")
    code = smtp_sink.last_code(email)

    # The name is asked for once the code proved the address; the code stays usable.
    no_name = await client.post("/api/user/login", json={"email_id": email, "otp": code})
    assert (await no_name.json()) == {"require": ["name"]}

    done = await client.post(
        "/api/user/login", json={"email_id": email, "otp": code, "name": "  Ada   Lovelace "}
    )
    body = await done.json()
    assert body["user"]["name"] == "Ada Lovelace"
    assert body["user"]["email_id"] == email

    me = await (await client.get("/user/me", headers=bearer(body["allspark_auth_key"]))).json()
    assert me["user"]["_id"] == body["user"]["_id"]
    profile = await client.get("/api/user/profile", headers=bearer(body["allspark_auth_key"]))
    assert (await profile.json())["user"]["name"] == "Ada Lovelace"


async def test_returning_user_needs_only_the_code_and_keeps_their_account(client, smtp_sink):
    email = new_email()
    first = await login(client, smtp_sink, email, name="Grace")
    sent = await request_code(client, email)
    assert sent["require"] == ["otp"]
    again = await client.post(
        "/api/user/login", json={"email_id": email, "otp": smtp_sink.last_code(email)}
    )
    body = await again.json()
    assert body["user"]["_id"] == first["user"]["_id"]
    assert body["user"]["name"] == "Grace"
    assert body["allspark_auth_key"] != first["allspark_auth_key"]


async def test_a_code_works_only_once(client, smtp_sink):
    email = new_email()
    await request_code(client, email)
    code = smtp_sink.last_code(email)
    login_body = {"email_id": email, "otp": code, "name": "Ada"}
    assert (await client.post("/api/user/login", json=login_body)).status == 200
    replay = await client.post("/api/user/login", json=login_body)
    assert replay.status == 400
    assert "expired" in (await replay.json())["errors"]["otp"]


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


async def test_wrong_code_counts_down_and_the_right_code_still_works(client, smtp_sink):
    email = new_email()
    await request_code(client, email)
    code = smtp_sink.last_code(email)
    wrong = await client.post(
        "/api/user/login", json={"email_id": email, "otp": _wrong(code), "name": "Ada"}
    )
    assert wrong.status == 400
    assert (await wrong.json())["errors"] == {"otp": "Wrong code, 4 tries left"}
    right = await client.post(
        "/api/user/login", json={"email_id": email, "otp": code, "name": "Ada"}
    )
    assert right.status == 200


async def test_code_is_locked_after_five_wrong_tries_even_when_guessed_in_parallel(
    client, smtp_sink
):
    email = new_email()
    await request_code(client, email)
    code = smtp_sink.last_code(email)
    guesses = [
        client.post("/api/user/login", json={"email_id": email, "otp": _wrong(code), "name": "A"})
        for _ in range(12)
    ]
    replies = await asyncio.gather(*guesses)
    messages = [(await r.json())["errors"]["otp"] for r in replies]
    assert all(r.status == 400 for r in replies)
    assert sum(m.startswith("Wrong code") for m in messages) == 4
    assert sum(m.startswith("Too many wrong codes") for m in messages) == 8

    locked = await client.post(
        "/api/user/login", json={"email_id": email, "otp": code, "name": "A"}
    )
    assert locked.status == 400
    assert (await locked.json())["errors"]["otp"].startswith("Too many wrong codes")

    await request_code(client, email)
    fresh = smtp_sink.last_code(email)
    unlocked = await client.post(
        "/api/user/login", json={"email_id": email, "otp": fresh, "name": "A"}
    )
    assert unlocked.status == 200


async def test_expired_code_is_refused(client_for, smtp_sink):
    client = await client_for(otp_ttl_seconds=1)
    email = new_email()
    await request_code(client, email)
    code = smtp_sink.last_code(email)
    await asyncio.sleep(1.5)
    late = await client.post("/api/user/login", json={"email_id": email, "otp": code, "name": "A"})
    assert late.status == 400
    assert "expired" in (await late.json())["errors"]["otp"]


async def test_code_requests_are_rate_limited_per_identifier(client_for, smtp_sink):
    client = await client_for(otp_sends_per_identifier=2)
    email = new_email()
    for _ in range(2):
        await request_code(client, email)
    limited = await client.post("/api/user/login", json={"email_id": email})
    assert limited.status == 429
    assert 0 < int(limited.headers["Retry-After"]) <= 900
    assert "errors" in await limited.json()
    assert len(smtp_sink.to(email)) == 2
    other = await client.post("/api/user/login", json={"email_id": new_email()})
    assert other.status == 200


async def test_login_calls_are_rate_limited_per_address(client_for):
    client = await client_for(login_attempts_per_ip=3)
    statuses = [(await client.post("/api/user/login", json={})).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


async def test_code_requests_are_rate_limited_per_address(client_for):
    client = await client_for(otp_sends_per_ip=2)
    statuses = [
        (await client.post("/api/user/login", json={"email_id": new_email()})).status
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]


async def test_phone_login_normalizes_the_number(client, caplog):
    caplog.set_level("WARNING", logger="agora.messaging")
    sent = await client.post("/api/user/login", json={"phone_number": "+31 (6) 1234-5678"})
    assert (await sent.json())["require"] == ["otp"]
    line = next(r.getMessage() for r in caplog.records if "+31612345678" in r.getMessage())
    code = line.split(": ")[1].split()[0]
    done = await client.post(
        "/api/user/login", json={"phone_number": "0031612345678", "otp": code, "name": "Piet"}
    )
    body = await done.json()
    assert body["user"]["phone_number"] == "+31612345678"
    assert body["user"]["email_id"] is None


async def test_invalid_identifiers_and_codes_are_explained(client):
    bad_email = await client.post("/api/user/login", json={"email_id": "not-an-email"})
    assert bad_email.status == 400
    assert (await bad_email.json())["errors"] == {"email_id": "Enter a valid e-mail address"}
    bad_phone = await client.post("/api/user/login", json={"phone_number": "12ab"})
    assert bad_phone.status == 400
    assert "phone_number" in (await bad_phone.json())["errors"]
    bad_code = await client.post("/api/user/login", json={"email_id": new_email(), "otp": "12"})
    assert (await bad_code.json())["errors"] == {"otp": "Enter the 6-digit code"}


async def test_the_login_replies_do_not_tell_whether_an_address_has_an_account(client, smtp_sink):
    known = new_email()
    await login(client, smtp_sink, known)
    unknown = new_email()
    replies = [await request_code(client, address) for address in (known, unknown)]
    for reply in replies:
        reply["data"].pop("sent_to")
    assert (
        replies[0]
        == replies[1]
        == {
            "require": ["otp"],
            "data": {"otp_length": 6, "otp_expires_in": 600},
        }
    )
    # A wrong code is a wrong code for both: a new address is not asked for a name first.
    for address in (known, unknown):
        wrong = _wrong(smtp_sink.last_code(address))
        reply = await client.post("/api/user/login", json={"email_id": address, "otp": wrong})
        assert reply.status == 400
        assert "Wrong code" in (await reply.json())["errors"]["otp"]
