"""Changing sent messages: a sender edits or deletes their own, a group's admins and
moderators delete others', and a chat's pinned messages (`/session/message/edit`,
`/session/message/delete`, `/session/pin`, `/session/pins`).

Each change is a command to the session's shard (`actors.protocol.MessageChange`), which
decides it with the members it holds, stores it, changes its memory and announces it to the
chat's room as `message_update`; the edge turns its outcome into the client's reply here."""

from typing import Any, assert_never

from agora.actors.client import SessionShards
from agora.actors.protocol import (
    Changed,
    ChangeOutcome,
    DeleteMessage,
    EditMessage,
    MessageChange,
    Moved,
    NoSuchChat,
    NoSuchMessage,
    PinMessage,
    Refused,
    Unavailable,
)
from agora.core.chat.access import NO_SUCH_CHAT
from agora.core.chat.checks import checked_text
from agora.core.chat.views import message_view
from agora.core.errors import BrieflyUnavailable, Forbidden, InvalidInput, NotFound
from agora.core.message_changes import NO_SUCH_MESSAGE, pinned_times
from agora.core.message_kinds import ChatKinds
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.services.events import Events, MessageDeleted
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore

CHANGE_UNAVAILABLE = "Could not change the message now, please try again"


class MessageChanges:
    def __init__(
        self,
        *,
        shards: SessionShards,
        access: ChatAccess,
        messages: MessageStore,
        sessions: SessionStore,
        kinds: ChatKinds,
        events: Events,
    ) -> None:
        self.shards = shards
        self.access = access
        self.messages = messages
        self.sessions = sessions
        self.kinds = kinds
        self.events = events

    async def edit(
        self, caller: Caller, session_id: str, created_at: int, payload: str
    ) -> dict[str, Any]:
        """The message with its new text (checked as a send's is), marked `edited_at`."""
        text = checked_text(payload)
        if not text:
            raise InvalidInput({"payload": "Write the message's new text"})
        command = EditMessage(session_id, created_at, caller.user["_id"], text)
        return {"message": (await self._changed(command)).message}

    async def delete(self, caller: Caller, session_id: str, created_at: int) -> dict[str, Any]:
        """The message as deleted: its content gone, `deleted_at` (and `deleted_by` when a
        moderator deleted it) in its place. Deleting it again changes nothing."""
        changed = await self._changed(DeleteMessage(session_id, created_at, caller.user["_id"]))
        files = tuple(changed.removed_files)
        await self.events.publish(MessageDeleted(session_id, created_at, files))
        return {"message": changed.message}

    async def pin(
        self, caller: Caller, session_id: str, created_at: int, pinned: bool
    ) -> dict[str, Any]:
        """The chat's pinned messages after pinning (or unpinning) this one."""
        command = PinMessage(session_id, created_at, caller.user["_id"], pinned)
        return {"pins": (await self._changed(command)).pins or []}

    async def pins(self, caller: Caller | None, session_id: str) -> dict[str, Any]:
        """The chat's pinned messages, the newest pin first, for whoever may read it."""
        chat, _ = await self.access.readable(caller, session_id)
        times = pinned_times(chat)
        found = {m["created_at"]: m for m in await self.messages.at_times(session_id, times)}
        return {"pins": [message_view(found[t], self.kinds) for t in times if t in found]}

    async def _changed(self, command: MessageChange) -> Changed:
        changed = _answer(await self.shards.change(command))
        if changed.pins is not None:
            self.sessions.changed_by_shard(command.session_id)
        return changed


def _answer(outcome: ChangeOutcome) -> Changed:
    """The change made, or why not as the client reads it: a chat hidden from the caller is
    answered as a missing one, a refusal in the words a send's would have."""
    match outcome:
        case Changed():
            return outcome
        case NoSuchChat():
            raise NotFound({"session_id": NO_SUCH_CHAT})
        case NoSuchMessage():
            raise NotFound({"created_at": NO_SUCH_MESSAGE})
        case Refused(errors=errors):
            raise Forbidden(errors)
        case Unavailable() | Moved():
            raise BrieflyUnavailable(CHANGE_UNAVAILABLE)
        case _:
            assert_never(outcome)
