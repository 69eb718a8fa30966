"""Message kinds as plug-ins: generic chat knows a message type, and a kind of conversation,
only through what is registered for it here, never by naming a feature.

A `MessageKind` says what a member sends in its `data` (`KindData`: the fields, each
described for the API document; any other is refused), how a message of its type is checked
when a member sends it (the values of those fields among the rest), who may
post it where, what its view adds to the chat's (in the chat, the chat list and the socket
events), what the message info view adds, and whether the chat's away members are told of
it by web push. A `ConversationKind` says what a kind of session (`session.kind`) takes and
shows. The composition root (`agora/composition/base.py` `chat_kinds`) fills one `ChatKinds`
with the chat's own kinds (`core.chat.checks.CHAT_MESSAGE_KINDS`) and those each feature
brings (`core.whatsapp.kinds`), and hands it to the chat's services and shards.

Kinds are frozen dataclasses of module-level functions, so the registry pickles as it is
to the chat shards (other processes).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

# (message type, text, attachments, location, data as sent) -> (location, data) as stored;
# InvalidInput when the message cannot be sent as it is.
Check = Callable[
    [int, str, list[str], Any, Any], tuple[dict[str, Any] | None, dict[str, Any] | None]
]
# (session, the sender's membership type or None) -> why they may not post it there, or None.
Refusal = Callable[[dict[str, Any], int | None], str | None]
# The stored message -> fields its view adds.
ViewExtras = Callable[[dict[str, Any]], dict[str, Any]]


class KindData(BaseModel):
    """The `data` a member sends with a message of a kind: the fields it may carry (any other
    is refused as an unknown field), their values its kind's to check (`MessageKind.check`),
    so that a refused one is answered as a refused message (type -1) with the kind's words.
    Each field's `WithJsonSchema` describes its value for the API document."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NoData(KindData):
    """Nothing: a kind members never send."""


@dataclass(frozen=True)
class MessageKind:
    type: int
    # What a member sends in `data` with it (the HTTP body and the socket's `send` take it so).
    data: type[KindData] = NoData
    # Posted by services only (a system notice, a WhatsApp customer's message): its sender
    # is no member, so it is not bound by a membership, and clients may not send it.
    by_service: bool = False
    # How a member's message of this kind is checked; None when members never send it.
    check: Check | None = None
    # Who may post it in a session they see; None leaves it to the chat's write permission
    # (`core.chat.access.can_send`).
    refusal: Refusal | None = None
    # What its message view adds (`core.chat.views.message_view`).
    view: ViewExtras | None = None
    # What its message info view adds (POST /session/im_info).
    info: ViewExtras | None = None
    # Whether its info view lists the chat's members who received and read it: not where
    # its reader is no member (an agent's WhatsApp reply is read by the customer, and the
    # other agents' marks would show as 'Read by' on a reply that never even reached them).
    member_receipts: bool = True
    # Whether the chat's members away from it are told of it by web push.
    pushed: bool = True


@dataclass(frozen=True)
class ConversationKind:
    """A kind of session a feature brings (`session.kind`)."""

    name: str
    # The message types it takes, and why any other is refused there.
    takes: frozenset[int]
    refused: str
    # Keys of its `data` its session view shows, besides the chat's own.
    view_data: tuple[str, ...] = ()
    # Its messages change after they are stored, which the shards' copies do not hear of:
    # pages of it are read from the store.
    changes_after_stored: bool = False


class ChatKinds:
    """The registry: every kind by its message type, every conversation kind by name."""

    def __init__(
        self,
        messages: Iterable[MessageKind],
        conversations: Iterable[ConversationKind] = (),
    ) -> None:
        self._messages: dict[int, MessageKind] = {}
        for kind in messages:
            if kind.type in self._messages:
                raise ValueError(f"message type {kind.type} is registered twice")
            self._messages[kind.type] = kind
        self._conversations: dict[str, ConversationKind] = {}
        for conversation in conversations:
            if conversation.name in self._conversations:
                raise ValueError(f"conversation kind {conversation.name!r} is registered twice")
            self._conversations[conversation.name] = conversation

    def message(self, message_type: int) -> MessageKind:
        """The kind of this type; a type no one registered is one members may not send."""
        return self._messages.get(message_type) or MessageKind(message_type)

    def sent_by_members(self) -> list[MessageKind]:
        """The kinds members send, by type."""
        return sorted((k for k in self._messages.values() if k.check), key=lambda k: k.type)

    def conversation(self, session: dict[str, Any]) -> ConversationKind | None:
        """The kind a feature brought for this session; None for the chat's own (groups and
        item chats)."""
        return self._conversations.get(session.get("kind") or "")

    def kept_as_stored(self, session: dict[str, Any]) -> bool:
        """Whether the session's messages stay as they were stored, so that its shard's
        copies of them are right; a business chat's change later (WhatsApp's flags), and the
        shard does not hear of it."""
        conversation = self.conversation(session)
        return conversation is None or not conversation.changes_after_stored
