"""A chat's reads across its stores that share one store command (`store/reads_together.py`):
each store says what it reads, this assembles them."""

from dataclasses import dataclass
from typing import Any

from agora.core.documents import ChatSession, Message
from agora.store.messages import MessageStore
from agora.store.reads_together import read_together
from agora.store.sessions import SessionStore, member_types_of


@dataclass(frozen=True)
class ChatToHold:
    """What a session shard holds of a chat from its first use on: the chat as stored,
    counters included, its newest messages (oldest first) and its members' types."""

    chat: ChatSession
    newest: list[Message]
    member_types: dict[str, int]


async def chat_to_hold(
    sessions: SessionStore, messages: MessageStore, session_id: str, newest: int
) -> ChatToHold | None:
    """The chat with its `newest` latest messages and its members' types, in one command (a
    shard's load of a chat on its first send took three, 1.8/s each at 300 people); None when
    there is no such chat."""
    found = await read_together(
        {
            "chat": sessions.chat_read(session_id),
            "newest": messages.newest_read(session_id, newest),
            "members": sessions.member_types_read(session_id),
        }
    )
    if not found["chat"]:
        return None
    [chat] = found["chat"]
    return ChatToHold(chat, found["newest"][::-1], member_types_of(found["members"]))


async def newest_page_and_furthest_marks(
    sessions: SessionStore,
    messages: MessageStore,
    session_id: str,
    limit: int,
    *,
    with_chat: bool = False,
) -> tuple[list[Message], list[dict[str, Any]]]:
    """The chat's `limit` latest messages (oldest first) and its furthest marks
    (`SessionStore.furthest_marks`), in one command when this process's copy of the marks
    cannot give them: a chat opened that its shard does not hold. `with_chat`: the chat too,
    kept as this edge's copy (`SessionStore.chat`), for an opening that has none."""
    marks, newest = await sessions.furthest_marks_and(
        session_id, messages.newest_read(session_id, limit), with_chat=with_chat
    )
    return newest[::-1], marks
