"""Sending: a member's message is checked and handed to its session's shard; a dummy item
chat becomes real with its first message."""

import asyncio
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never

from agora.actors.client import SessionShards
from agora.actors.protocol import (
    Moved,
    NoSuchChat,
    Refused,
    SendOutcome,
    Stored,
    StoreMessage,
    Unavailable,
)
from agora.core.chat.access import CANNOT_SEND, NO_SUCH_CHAT
from agora.core.chat.checks import NOT_IN_THIS_CHAT, Outgoing, check_outgoing, reply_to_of
from agora.core.chat.constants import CHAT_ATTACHMENT_TYPES
from agora.core.chat.item_chats import item_chat_members, item_chat_session, parse_item_chat_id
from agora.core.chat.views import send_accepted, send_refused
from agora.core.clock import now_ms
from agora.core.errors import AgoraError, BrieflyUnavailable, Forbidden, InvalidInput, NotFound
from agora.core.message_kinds import ChatKinds
from agora.realtime.emitter import RealtimeEmitter
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.services.chat.shard_sends import ShardSends
from agora.services.items import PostReader, StoredFiles
from agora.store.chat_hints import ChatHints
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore


class PreparesSend(Protocol):
    """What a plug-in kind's message needs before its shard stores it, checked with what the
    shard cannot know (an agent's reply to a WhatsApp customer against its business chat:
    `services.whatsapp.outbound.BusinessSends`): the message to store and its first flags."""

    async def prepare(
        self, caller: Caller, outgoing: Outgoing, files: list[dict[str, Any]]
    ) -> tuple[Outgoing, dict[str, Any]]: ...


# The answer to a send that waited too long for a store or a shard, or that the store failed.
STORE_UNAVAILABLE = "Could not send the message now, please try again"


@dataclass(frozen=True)
class SendMessage:
    """A member's message as the socket's `send` or POST /session/send carries it: the one
    command both hand to `Sending.send`."""

    dest_session_id: str
    payload: str = ""
    payload1: tuple[str, ...] = ()
    type: int = 1003
    is_dummy_session: bool = False
    created_at: int | None = None
    local_id: str = ""
    # `data.location` as sent, checked with the rest of the message.
    location: Any = None
    # `data` as sent, location included: a WhatsApp message's fields.
    data: dict[str, Any] = field(default_factory=dict)


class Sending:
    def __init__(
        self,
        *,
        shards: SessionShards,
        shard_sends: ShardSends,
        access: ChatAccess,
        messages: MessageStore,
        uploads: StoredFiles,
        posts: PostReader,
        sessions: SessionStore,
        hints: ChatHints,
        emitter: RealtimeEmitter,
        kinds: ChatKinds,
        sends: Mapping[int, PreparesSend],
    ) -> None:
        self.shards = shards
        self.shard_sends = shard_sends
        self.access = access
        self.messages = messages
        self.uploads = uploads
        self.posts = posts
        self.sessions = sessions
        self.hints = hints
        self.emitter = emitter
        # The message kinds chat knows (`core.message_kinds`).
        self.kinds = kinds
        # By message type: the kinds whose sends a feature prepares; the chat's own need
        # nothing but their files' types checked.
        self.sends = sends

    async def send(self, caller: Caller, command: SendMessage) -> dict[str, Any]:
        """The client's reply (spec: type 13 with the stored `inbox_message`, or -1 with
        `errors`), built here once from the shard's outcome."""
        try:
            await self.shards.started(command.dest_session_id)
            return await self._answered_in_time(self._send(caller, command))
        except AgoraError as error:
            # Refusals are replies of their own (type -1); a caller who must log in, or a
            # store that failed (send again later), is told by the status.
            if error.status in (401, 503):
                raise
            return send_refused(error.errors)

    async def _answered_in_time(self, sending: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        """The send's reply, or a refusal to send it again (same `local_id`) once it has
        waited `send_answer_seconds` for a store or a shard that does not answer: a resend
        is recognised, so the message is stored once whichever attempt stores it."""
        bound = asyncio.timeout(self.shards.answer_seconds)
        try:
            async with bound:
                return await sending
        except TimeoutError:
            if bound.expired():
                raise BrieflyUnavailable(STORE_UNAVAILABLE) from None
            raise

    async def _send(self, caller: Caller, data: SendMessage) -> dict[str, Any]:
        """Checks the message and hands it to the session's shard, which knows the session and
        its members and says whether the sender may post; an item chat that is still a dummy
        becomes real with its first message."""
        user_id = caller.user["_id"]
        outgoing = check_outgoing(
            self.kinds,
            session_id=data.dest_session_id,
            src_id=user_id,
            local_id=data.local_id,
            message_type=data.type,
            payload=data.payload,
            attachments=list(data.payload1),
            client_created_at=data.created_at,
            location=data.location,
            data=data.data,
        )
        files = await self.uploads.stored_files(user_id, list(outgoing.attachments))
        info: dict[str, Any] = {}
        if (preparer := self.sends.get(outgoing.type)) is not None:
            outgoing, info = await preparer.prepare(caller, outgoing, files)
        else:
            if any(f["mime_type"] not in CHAT_ATTACHMENT_TYPES for f in files):
                raise InvalidInput({"payload1": "Attach jpeg, png, pdf, docx or mp4 files"})
            await self._check_answered(caller, outgoing)
        stored_data = {"location": outgoing.location} if outgoing.location else {}
        stored_data |= outgoing.data or {}
        message = StoreMessage(
            session_id=outgoing.session_id,
            src_id=user_id,
            local_id=outgoing.local_id,
            type=outgoing.type,
            payload=outgoing.payload,
            payload1=files,
            client_created_at=outgoing.client_created_at,
            data=stored_data or None,
            info=info or None,
        )
        outcome = await self._to_shard(message)
        created = False
        if isinstance(outcome, NoSuchChat):
            created = await self._make_real(outgoing.session_id, caller)
            outcome = await self._to_shard(message)
        return _reply(outcome, created)

    async def _check_answered(self, caller: Caller, outgoing: Outgoing) -> None:
        """A reply answers a message of its own chat. Asked only of those who read the chat,
        so that a stranger cannot tell which messages a chat hidden from them holds."""
        reply_to = reply_to_of(outgoing.data)
        if reply_to is None:
            return
        try:
            await self.access.readable(caller, outgoing.session_id)
        except NotFound:
            raise NotFound({"dest_session_id": NO_SUCH_CHAT}) from None
        except Forbidden:
            raise Forbidden(CANNOT_SEND) from None
        if await self.messages.get(outgoing.session_id, reply_to) is None:
            raise InvalidInput({"context": NOT_IN_THIS_CHAT})

    async def _to_shard(self, message: StoreMessage) -> SendOutcome:
        outcome = await self.shard_sends.send(message)
        if isinstance(outcome, Unavailable):
            raise BrieflyUnavailable(STORE_UNAVAILABLE)
        return outcome

    async def _make_real(self, session_id: str, caller: Caller) -> bool:
        """A dummy item chat becomes a stored one with its first message; says whether this
        call stored it (a concurrent first message may have)."""
        user_id = caller.user["_id"]
        parsed = parse_item_chat_id(session_id)
        if parsed is None or parsed[1] != user_id:
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        try:
            item, _, _ = await self.posts.readable(caller, parsed[0])
        except AgoraError as error:
            # A post the sender may not read has no chat they could open.
            raise NotFound({"dest_session_id": NO_SUCH_CHAT}) from error
        if item["user_id"] == user_id:
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        route_id = await self.hints.route(session_id) or item["route_id"]
        chat = item_chat_session(item, user_id, route_id, now_ms())
        members = item_chat_members(item, user_id)
        _, created = await self.sessions.create_once(chat, members)
        if created:
            # The poster hears of the chat on whatever screen they have open.
            for member_id in members:
                await self.emitter.follow(member_id, [session_id])
        return created


def _reply(outcome: SendOutcome, new_session_created: bool) -> dict[str, Any]:
    """The client's reply to the shard's outcome; `new_session_created` says whether the send
    made its item chat real."""
    match outcome:
        case Stored(message=message):
            return send_accepted(message, new_session_created=new_session_created)
        case Refused(errors=errors, retry_after_ms=retry_after_ms):
            return send_refused(errors, retry_after_ms=retry_after_ms)
        case NoSuchChat():
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        case Unavailable() | Moved():
            # Answered before (`_to_shard`), or never (the edge sends a moved message again).
            raise BrieflyUnavailable(STORE_UNAVAILABLE)
        case _:
            assert_never(outcome)
