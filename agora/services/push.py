"""Web push: subscriptions of signed-in browsers, presence of sockets, and who of a
stored message's members is told by push (the user shards decide and send).

Everything that follows a stored message runs from a queue on this edge, never on the
path that acknowledges the message. Deciding reads the chats' memberships: with the store
away, a batch is tried again (with growing waits) until it is decided, or given up after
UNDECIDED_PUSH_SECONDS; what was queued meanwhile waits behind it. Trying again tells a
shard of a message twice at most, which pushes it once.
"""

import asyncio
import functools
import logging
from dataclasses import replace
from typing import Any

from agora.actors.user_client import UserShards
from agora.actors.users import UNDECIDED_PUSH_SECONDS, vapid_pair
from agora.core.chat.constants import SESSION_KIND_ITEM_CHAT
from agora.core.errors import InvalidInput
from agora.core.mentions import mention_text
from agora.core.message_kinds import ChatKinds
from agora.core.money import format_amount
from agora.core.payments import PROFILE_PATH
from agora.core.push import (
    PUSH_OS_TYPE_WEB,
    PUSH_SUBSCRIPTIONS_PER_ACCOUNT,
    DeliveryReceipt,
    Notification,
    mention_recipients,
    parse_subscription,
    push_recipients,
    read_delivery_receipt,
)
from agora.services.accounts import Caller
from agora.services.events import (
    MessageDeleted,
    MessageStored,
    OfferPaid,
    RewardReleased,
    SignedOut,
)
from agora.settings import Settings
from agora.store.push_subscriptions import PushSubscriptionStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore
from agora.store.vapid_keys import VapidKeyStore
from agora.tools.background import retried

log = logging.getLogger("agora.push")

QUEUE_LIMIT = 10_000
# Work gathered for one decision: pushes are coalesced over seconds anyway, so a short wait
# costs nothing visible and lets a busy edge read memberships once for many messages. With
# 50 ms, the reads were an eighth of nx-27017's commands at 1,000 sends a second, and a
# message to a 1,000-member group read its memberships 20 times a second.
GATHER_SECONDS = 0.2
# At most this many per decision: up to 10,000 messages a second.
GATHER_MAX = 2_000
ATTACHMENT_TEXT = "Sent a file"


class PushService:
    def __init__(
        self,
        *,
        settings: Settings,
        subscriptions: PushSubscriptionStore,
        vapid: VapidKeyStore,
        shards: UserShards,
        sessions: SessionStore,
        users: UserStore,
        kinds: ChatKinds,
    ) -> None:
        self.settings = settings
        self.subscriptions = subscriptions
        self.vapid = vapid
        self.shards = shards
        self.sessions = sessions
        self.users = users
        self.kinds = kinds
        self._public_key: str | None = None
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_LIMIT)
        self._worker: asyncio.Task | None = None

    # Subscriptions --------------------------------------------------------------

    async def info(self) -> dict[str, Any]:
        """What the web app subscribes with."""
        if self._public_key is None:
            self._public_key = (await vapid_pair(self.settings, self.vapid))["public_key"]
        return {"public_key": self._public_key, "os_type": PUSH_OS_TYPE_WEB}

    async def register(self, caller: Caller, os_type: str, push_token: str) -> None:
        subscription = parse_subscription(
            os_type, push_token, self.settings.push_allow_loopback_endpoints
        )
        user_id = caller.user["_id"]
        before = await self.subscriptions.save(
            user_id, caller.key_hash, subscription, PUSH_SUBSCRIPTIONS_PER_ACCOUNT
        )
        # The shards keep each person's subscriptions; the next message is pushed to the new one
        # (and no longer to whom the browser belonged before).
        await self._subscriptions_changed(sorted({user_id, before or user_id}))

    async def signed_out(self, signed_out: SignedOut) -> None:
        """The logged-out browser's subscriptions are deleted: no push reaches it again."""
        await self._subscriptions_changed([signed_out.user_id])

    async def _subscriptions_changed(self, user_ids: list[str]) -> None:
        if self.settings.push_enabled:
            await self.shards.subscriptions_changed(user_ids)

    def read_receipts(self, tokens: list[str]) -> list[DeliveryReceipt]:
        """The delivery receipts pushes carried, as a service worker posts them back; any
        token we did not sign refuses the whole batch."""
        secret = self.settings.secret_key.get_secret_value()
        receipts = [read_delivery_receipt(secret, token) for token in tokens]
        if any(receipt is None for receipt in receipts):
            raise InvalidInput({"receipts": "Not a delivery receipt of a push"})
        return [receipt for receipt in receipts if receipt is not None]

    # Presence (from this edge's sockets) ----------------------------------------------

    def socket_connected(self, sid: str, user_id: str) -> None:
        if self.settings.push_enabled:
            self.shards.connected(sid, user_id)

    async def socket_viewing(self, sid: str, session_id: str | None) -> None:
        if self.settings.push_enabled:
            await self.shards.viewing(sid, session_id)

    def socket_closed(self, sid: str) -> None:
        if self.settings.push_enabled:
            self.shards.disconnected(sid)

    async def keep_presence(self, stop: asyncio.Event) -> None:
        if self.settings.push_enabled:
            await self.shards.keep_reporting(stop)

    # Events -------------------------------------------------------------------------

    def message_stored(self, stored: MessageStored) -> None:
        """A new message was stored and acknowledged: its members who are not looking at the
        chat are pushed to, later, from the queue."""
        self._enqueue({"kind": "message", "message": stored.message, "members": stored.members})

    def message_deleted(self, deleted: MessageDeleted) -> None:
        """A push of a deleted message that is not sent yet is not sent (a push already sent
        stays): every user shard hears of it, as any of them may hold one."""
        if self.settings.push_enabled:
            self.shards.withdraw(deleted.session_id, deleted.created_at)

    async def offer_paid(self, paid: OfferPaid) -> None:
        """Money arrived: the participant and each sharer paid a finder's fee are pushed to,
        even in a muted chat, never coalesced with messages, once per money move however
        often the offer is reported (a retried request)."""
        amount = format_amount(paid.amount_cents, paid.currency)
        self._direct(
            paid.payee_id,
            f"offer:{paid.move_id}",
            Notification(
                paid.session_id,
                f"New offer: '{paid.item_title}'",
                "",
                f"{paid.payer_name} gave you an offer of {amount}",
                direct=True,
            ),
        )
        for fee in paid.finder_fees:
            # The sharer is no member of the chat: the push opens their earnings on the profile.
            self._direct(
                fee.user_id,
                f"fee:{paid.move_id}",
                Notification(
                    paid.session_id,
                    f"Finder's fee: '{paid.item_title}'",
                    "",
                    f"You earned {format_amount(fee.amount_cents, paid.currency)} "
                    f"for sharing '{paid.item_title}'",
                    direct=True,
                    url=PROFILE_PATH,
                ),
            )

    async def reward_released(self, released: RewardReleased) -> None:
        """The poster is told what came back of a closed, deleted or expired post's reward,
        once per post and currency."""
        amount = format_amount(released.amount_cents, released.currency)
        self._direct(
            released.user_id,
            f"released:{released.item_id}:{released.currency}",
            Notification(
                # No chat: the push's topic is the post's, and a click opens the wallets.
                f"reward:{released.item_id}",
                f"Reward released: '{released.title}'",
                "",
                f"{amount} is back in your wallet",
                url=PROFILE_PATH,
            ),
        )

    def _direct(self, user_id: str, ref: str, notification: Notification) -> None:
        self._enqueue({"kind": "direct", "user_id": user_id, "ref": ref, "n": notification})

    def _enqueue(self, work: dict[str, Any]) -> None:
        if not self.settings.push_enabled:
            return
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._work(), name="push-queue")
        try:
            self._queue.put_nowait(work)
        except asyncio.QueueFull:
            log.warning("the push queue is full; a %s was not pushed", work["kind"])

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    async def _work(self) -> None:
        while True:
            batch = [await self._queue.get()]
            # Messages arriving together are decided together: one read of their chats'
            # memberships and one of the chats, rather than two per message.
            await asyncio.sleep(GATHER_SECONDS)
            while len(batch) < GATHER_MAX and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await retried(
                    functools.partial(self._decide, batch),
                    f"deciding on {len(batch)} queued pushes",
                    UNDECIDED_PUSH_SECONDS,
                )
            except Exception:
                log.exception("gave up deciding on %d queued pushes", len(batch))

    async def _decide(self, batch: list[dict[str, Any]]) -> None:
        # Kinds that are not pushed (notices: offers have a push of their own) are dropped.
        batch = [
            work
            for work in batch
            if work["kind"] == "direct" or self.kinds.message(work["message"]["type"]).pushed
        ]
        messages = [work for work in batch if work["kind"] == "message"]
        members: dict[str, list[dict[str, Any]]] = {}
        sessions: dict[str, dict[str, Any]] = {}
        if session_ids := list({w["message"]["dest_session_id"]: None for w in messages}):
            members, sessions = await self._memberships_and_chats(messages, session_ids)
        for work in batch:
            if work["kind"] == "direct":
                self.shards.notify([work["user_id"]], work["ref"], work["n"], False)
            else:
                await self._message(work["message"], members, sessions)

    async def _memberships_and_chats(
        self, messages: list[dict[str, Any]], session_ids: list[str]
    ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, dict[str, Any]]]:
        """The memberships of the messages' chats (`session_ids`), by chat: of the members a
        small chat's shard named, from this edge's copies (exact for types and mutes, which
        every change announces); of the other chats, read by chat. And the chats (their titles
        and kinds) by id, from this edge's copies. What no copy holds is read in one command
        (`SessionStore.push_reads`)."""
        named: dict[str, tuple[str, ...]] = {}
        for work in messages:
            if work["members"] is not None:
                named[work["message"]["dest_session_id"]] = work["members"]
        unnamed = [session_id for session_id in session_ids if session_id not in named]
        pairs = [(session_id, u) for session_id, users in named.items() for u in users]
        members, found, chats = await self.sessions.push_reads(session_ids, unnamed, pairs)
        for session_id in named:
            members[session_id] = []
        for (session_id, _), membership in found.items():
            members[session_id].append(membership)
        return members, {chat["_id"]: chat for chat in chats}

    async def _message(
        self,
        message: dict[str, Any],
        members: dict[str, list[dict[str, Any]]],
        sessions: dict[str, dict[str, Any]],
    ) -> None:
        session_id = message["dest_session_id"]
        memberships = members.get(session_id, [])
        # The mentioned are told at once, muted or not, that they were mentioned; the others
        # as any message is.
        mentioned = mention_recipients(message, memberships)
        recipients = [
            u for u in push_recipients(message["src_id"], memberships) if u not in set(mentioned)
        ]
        if not recipients and not mentioned:
            return
        session = sessions.get(session_id, {})
        sender = await self.users.get(message["src_id"]) or {}
        sender_name = sender.get("name", "")
        notification = Notification(
            session_id=session_id,
            title=session.get("title") or sender_name,
            sender_name=sender_name,
            text=message.get("payload") or ATTACHMENT_TEXT,
            # Item chats are between two people; groups, however small, are not.
            direct=session.get("kind") == SESSION_KIND_ITEM_CHAT,
            created_at=message["created_at"],
        )
        if recipients:
            self.shards.notify(recipients, message["id"], notification, True)
        if mentioned:
            as_mention = replace(notification, sender_name=mention_text(sender_name))
            self.shards.notify(mentioned, message["id"], as_mention, False)
