"""Accounts: multi-step login with one-time codes, auth keys, guests and profiles."""

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agora.core.accounts import (
    EMAIL_FIELD,
    OTP_LENGTH,
    PHONE_FIELD,
    REQUIRE_IDENTIFIER,
    Identifier,
    check_otp_format,
    clean_image_url,
    clean_name,
    guest_view,
    identifier_from,
    identifier_in_use,
    user_card,
    user_view,
)
from agora.core.documents import User
from agora.core.errors import InvalidInput, NeedLogin, NotFound, Unavailable
from agora.core.signing import digest, hash_secret, sign, unsign
from agora.integrations.messaging import CodeSender
from agora.services.events import Events, SignedOut
from agora.services.uploads import KeptImage
from agora.services.wallet import WalletService
from agora.settings import Settings
from agora.store.auth_keys import AuthKeyStore
from agora.store.otp import OtpCheck, OtpStore
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.rate_limits import RateLimiter
from agora.store.users import UserStore

log = logging.getLogger("agora.accounts")

# A person's rewards and reviews, by user id, for their profile as a viewer may read it.
StandingOf = Callable[[str, "Caller | None"], Awaitable[dict[str, Any]]]

LOGIN_PURPOSE = "login"
GUEST_PREFIX = "guest_"


@dataclass(frozen=True)
class ProfileChanges:
    name: str | None = None
    image: str | None = None
    email_id: str | None = None
    phone_number: str | None = None
    otp: str | None = None


@dataclass(frozen=True)
class Caller:
    """Who is calling: a user with the hash of the key they presented."""

    user: User
    key_hash: str


class AccountService:
    def __init__(
        self,
        *,
        settings: Settings,
        users: UserStore,
        auth_keys: AuthKeyStore,
        otps: OtpStore,
        limits: RateLimiter,
        email: CodeSender,
        sms: CodeSender,
        wallets: WalletService,
        kept_image: KeptImage,
        push_subscriptions: PushSubscriptionStore,
        events: Events,
        standing: StandingOf,
    ) -> None:
        self.settings = settings
        self.users = users
        self.auth_keys = auth_keys
        self.otps = otps
        self.limits = limits
        self.senders = {EMAIL_FIELD: email, PHONE_FIELD: sms}
        self.wallets = wallets
        self.kept_image = kept_image
        self.push_subscriptions = push_subscriptions
        self.events = events
        # Profiles show rewards held and paid, and reviews (`services.standing.Standing.of`).
        self.standing = standing
        self.secret = settings.secret_key.get_secret_value()

    # Login -------------------------------------------------------------------

    async def login(
        self,
        *,
        ip: str,
        email_id: str | None = None,
        phone_number: str | None = None,
        name: str | None = None,
        otp: str | None = None,
    ) -> dict[str, Any]:
        s = self.settings
        await self.limits.hit(f"login-ip:{ip}", s.login_attempts_per_ip, s.rate_window_seconds)
        ident = identifier_from(email_id, phone_number)
        if ident is None:
            return {"require": [REQUIRE_IDENTIFIER]}
        clean = clean_name(name) if name is not None else None
        user = await self.users.find_by_identifier(ident)
        if otp is None:
            # The same answer whether or not the address has an account: only its owner, with
            # the code, learns that (a new account's name is asked for after the code).
            return {"require": ["otp"], "data": await self._send_code(LOGIN_PURPOSE, ident, ip)}
        code = check_otp_format(otp)
        if user is None and clean is None:
            # The code was right; it stays usable for the step that brings the name.
            await self._verify_code(LOGIN_PURPOSE, ident, code, keep=True)
            return {"require": ["name"]}
        await self._verify_code(LOGIN_PURPOSE, ident, code)
        if user is None:
            user = await self.users.create(ident, clean or "")
        await self.wallets.grant_points(user["_id"])
        key = secrets.token_urlsafe(32)
        await self.auth_keys.add(hash_secret(key), user["_id"])
        return {"user": user_view(user), "allspark_auth_key": key}

    async def _send_code(self, purpose: str, ident: Identifier, ip: str) -> dict[str, Any]:
        s = self.settings
        window = s.rate_window_seconds
        await self.limits.hit(f"otp-ip:{ip}", s.otp_sends_per_ip, window)
        await self.limits.hit(f"otp-to:{ident.key}", s.otp_sends_per_identifier, window)
        code = f"{secrets.randbelow(10**OTP_LENGTH):0{OTP_LENGTH}d}"
        await self.otps.put(purpose, ident.key, self._code_hash(ident, code), s.otp_ttl_seconds)
        try:
            minutes = max(1, s.otp_ttl_seconds // 60)
            await self.senders[ident.field].send_code(ident.value, code, minutes)
        except Exception as exc:
            log.exception("could not deliver a code to %s", ident.masked())
            raise Unavailable("We could not send your code, please try again") from exc
        return {
            "sent_to": ident.masked(),
            "otp_length": OTP_LENGTH,
            "otp_expires_in": s.otp_ttl_seconds,
        }

    async def _verify_code(
        self, purpose: str, ident: Identifier, code: str, keep: bool = False
    ) -> None:
        outcome, remaining = await self.otps.check(
            purpose,
            ident.key,
            self._code_hash(ident, code),
            self.settings.otp_max_wrong_tries,
            keep=keep,
        )
        if outcome is OtpCheck.OK:
            return
        if outcome is OtpCheck.MISSING:
            raise InvalidInput({"otp": "This code has expired, please request a new one"})
        if outcome is OtpCheck.LOCKED or remaining == 0:
            raise InvalidInput({"otp": "Too many wrong codes, please request a new one"})
        tries = "try" if remaining == 1 else "tries"
        raise InvalidInput({"otp": f"Wrong code, {remaining} {tries} left"})

    def _code_hash(self, ident: Identifier, code: str) -> str:
        return digest(self.secret, f"{ident.key}:{code}")

    # Sessions ----------------------------------------------------------------

    async def authenticate(self, auth_key: str) -> Caller:
        key_hash = hash_secret(auth_key)
        user_id = await self.auth_keys.user_id_for(key_hash)
        user = await self.users.get(user_id) if user_id else None
        if user is None:
            raise NeedLogin("Your login has ended, please login again")
        return Caller(user=user, key_hash=key_hash)

    async def logout(self, caller: Caller) -> None:
        # The browser that logs out hears of this account no more, not even by push.
        await self.push_subscriptions.remove_for_key(caller.key_hash)
        await self.events.publish(SignedOut(caller.user["_id"]))
        await self.auth_keys.revoke(caller.key_hash)

    def revoked_keys(self, stop: asyncio.Event):
        """Hashes of keys revoked on any edge, as they happen, until `stop` is set."""
        return self.auth_keys.revocations(stop)

    def guest(self, cookie: str | None) -> tuple[dict[str, Any], str | None]:
        """The browser's guest identity, and a new signed cookie value when it had none."""
        guest_id = unsign(self.secret, cookie) if cookie else None
        if guest_id and guest_id.startswith(GUEST_PREFIX):
            return guest_view(guest_id), None
        guest_id = GUEST_PREFIX + secrets.token_hex(10)
        return guest_view(guest_id), sign(self.secret, guest_id)

    # Profile -----------------------------------------------------------------

    async def update_profile(
        self, caller: Caller, changes: ProfileChanges, ip: str
    ) -> dict[str, Any]:
        user = caller.user
        fields: dict[str, Any] = {}
        if changes.name is not None:
            fields["name"] = clean_name(changes.name)
        if changes.image is not None:
            fields["image"] = await self.kept_image(user["_id"], clean_image_url(changes.image))
        ident = identifier_from(changes.email_id, changes.phone_number)
        reply: dict[str, Any] = {}
        if ident is not None and ident.value != user.get(ident.field):
            purpose = f"change:{user['_id']}"
            if changes.otp is None:
                # Sent whether or not another account holds the address: the reply must not
                # tell. Only who proves to hold the address with the code learns it.
                reply = {"require": ["otp"], "data": await self._send_code(purpose, ident, ip)}
            else:
                await self._verify_code(purpose, ident, check_otp_format(changes.otp))
                owner = await self.users.find_by_identifier(ident)
                if owner is not None and owner["_id"] != user["_id"]:
                    raise identifier_in_use(ident.field)
                fields[ident.field] = ident.value
        if fields:
            user = await self.users.update_fields(user["_id"], fields) or user
        return {**reply, "user": user_view(user)}

    async def profile(self, caller: Caller) -> dict[str, Any]:
        wallets, standing = await asyncio.gather(
            self.wallets.member_wallets(caller.user["_id"]),
            self.standing(caller.user["_id"], caller),
        )
        return {"user": user_view(caller.user), "user_wallets": wallets, **standing}

    async def public_profile(self, user_id: str, viewer: Caller | None) -> dict[str, Any]:
        """What anyone may see of a person: name, picture, rewards and reviews (rewards of
        posts in groups the viewer may read)."""
        user = await self.users.get(user_id)
        if user is None:
            raise NotFound({"user_id": "This person does not exist"})
        return {"user": user_card(user), **await self.standing(user_id, viewer)}

    async def welcome_back(self, caller: Caller) -> None:
        """A member opening the app gets today's point (once a day, however often)."""
        await self.wallets.grant_points(caller.user["_id"])
