"""Reactions: a member's emoji on a message of an item or group chat, handed to the session's
shard, which keeps it in the store and its memory together and tells the chat's viewers once
a tick (`actors.sessions.SessionShardLogic.react`)."""

from dataclasses import dataclass
from typing import Any, assert_never

from agora.actors.client import SessionShards
from agora.actors.protocol import (
    Moved,
    NoSuchChat,
    NoSuchMessage,
    React,
    Reacted,
    Refused,
    Unavailable,
)
from agora.core.chat.access import NO_SUCH_CHAT
from agora.core.errors import BrieflyUnavailable, Forbidden, NotFound
from agora.core.reactions import NO_SUCH_MESSAGE, REACTION_UNAVAILABLE, check_emoji
from agora.services.accounts import Caller


@dataclass(frozen=True)
class ReactTo:
    """What the socket's `react` and POST /session/message/react carry: a message of a chat by
    its `created_at`, and the emoji ('' takes one's reaction away)."""

    session_id: str
    created_at: int
    emoji: str


class Reacting:
    def __init__(self, *, shards: SessionShards) -> None:
        self.shards = shards

    async def react(self, caller: Caller, command: ReactTo) -> dict[str, Any]:
        """`{ok, reactions}`: the message's reactions now (user id -> emoji)."""
        react = React(
            session_id=command.session_id,
            created_at=command.created_at,
            user_id=caller.user["_id"],
            emoji=check_emoji(command.emoji),
        )
        await self.shards.started(command.session_id)
        match await self.shards.react(react):
            case Reacted(reactions=reactions):
                return {"ok": True, "reactions": reactions}
            case NoSuchMessage():
                raise NotFound({"created_at": NO_SUCH_MESSAGE})
            case NoSuchChat():
                raise NotFound({"session_id": NO_SUCH_CHAT})
            case Refused(errors=errors):
                raise Forbidden(errors)
            case Unavailable() | Moved():
                raise BrieflyUnavailable(REACTION_UNAVAILABLE)
            case outcome:
                assert_never(outcome)
