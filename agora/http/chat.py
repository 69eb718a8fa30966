"""Chat over HTTP: item chats, send, messages, chat list, lookups, settings, moderation."""

import json
from functools import cache
from typing import Annotated, Any, Literal, Union

from aiohttp import web
from pydantic import BeforeValidator, Field, RootModel, create_model

from agora.core.chat.constants import (
    CLIENT_CREATED_AT_MAX,
    CLIENT_CREATED_AT_MIN,
    LOCAL_ID_MAX_LENGTH,
    MESSAGE_TYPE_CHAT,
    MESSAGE_TYPE_MAX,
)
from agora.core.errors import InvalidInput
from agora.core.mentions import MEMBER_SEARCH_MAX_LENGTH
from agora.core.message_kinds import ChatKinds, KindData, MessageKind, NoData
from agora.core.numbers import bounded_int
from agora.http.replies import ok
from agora.http.requests import (
    Body,
    Timestamp,
    optional_caller,
    read_body,
    read_object,
    require_caller,
    validated,
)
from agora.http.routes import Auth, Query, Reply, Route
from agora.services.chat.chat_list import ChatList
from agora.services.chat.lookups import ItemChats, Lookups
from agora.services.chat.message_changes import MessageChanges
from agora.services.chat.moderation import ChatSettings, MemberList, Moderation
from agora.services.chat.reading import MessageInfo, MessagePages
from agora.services.chat.sending import Sending, SendMessage
from agora.services.link_previews import LinkPreviewService

ID = Field(max_length=200)
AROUND_ALONE = "Not with greater_than_timestamp or less_than_timestamp"
IDS = Field(default_factory=list, max_length=200)


class ItemChatsBody(Body):
    route_id: str | None = Field(default=None, max_length=64)


FILE_LIST_TEXT_MAX_LENGTH = 4_000


def _json_list_text(value: Any) -> Any:
    """The spec calls `payload1` "a JSON list of files": some clients send the list itself,
    others a JSON string holding it (`"[]"`). Both are read as the list, then checked alike."""
    if not isinstance(value, str):
        return value
    try:
        # A list of three file paths is short; a long text is not one (and deep nesting in
        # it would exhaust the parser's recursion).
        if len(value) > FILE_LIST_TEXT_MAX_LENGTH:
            raise ValueError
        return json.loads(value)
    except (ValueError, RecursionError):
        raise ValueError("Must be a list, or a JSON string holding one") from None


FileList = Annotated[list[str], BeforeValidator(_json_list_text)]


class SendFields(Body):
    """What every send carries; `data` is as its kind says (`SendBodies`)."""

    dest_session_id: str = ID
    payload: str = ""
    payload1: FileList = Field(default_factory=list, max_length=10)
    # The spec names it `_type`, which pydantic would take for a private attribute.
    message_type: int = Field(default=MESSAGE_TYPE_CHAT, alias="_type", ge=0, le=MESSAGE_TYPE_MAX)
    is_dummy_session: bool = False
    # The sender's clock (ms), kept as the message's `client_created_at`: see the constants.
    created_at: int | None = Field(default=None, ge=CLIENT_CREATED_AT_MIN, le=CLIENT_CREATED_AT_MAX)
    local_id: str = Field(max_length=LOCAL_ID_MAX_LENGTH)
    data: KindData | None = None

    def send_message(self) -> SendMessage:
        data = self.data.model_dump(exclude_none=True) if self.data else {}
        return SendMessage(
            dest_session_id=self.dest_session_id,
            payload=self.payload,
            payload1=tuple(self.payload1),
            type=self.message_type,
            is_dummy_session=self.is_dummy_session,
            created_at=self.created_at,
            local_id=self.local_id,
            location=data.get("location"),
            data=data,
        )


class UnsendableKindBody(SendFields):
    """A send of a type members may not send (no kind, or one services post): it carries no
    `data`, and is refused (type -1) once its other fields are checked."""

    data: NoData | None = None


class SendBodies:
    """The body of a send, over HTTP and the socket's `send` alike, as its kind takes it: `_type`
    chooses the kind (1003 when it is left out), whose shape `data` has (`MessageKind.data`);
    the API document describes one body per kind."""

    def __init__(self, kinds: ChatKinds) -> None:
        self.by_type = {kind.type: _kind_body(kind) for kind in kinds.sent_by_members()}

    def command(self, raw: Any) -> SendMessage:
        """The send these fields make; ValidationError when one is not as its kind says."""
        return self._model(raw).model_validate(raw).send_message()

    def checked(self, raw: dict[str, Any]) -> SendMessage:
        """As `command`, refused as a bad request (400) when a field is not as it should be."""
        return validated(self._model(raw), raw).send_message()

    def _model(self, raw: Any) -> type[SendFields]:
        chosen = raw.get("_type", MESSAGE_TYPE_CHAT) if isinstance(raw, dict) else None
        if isinstance(chosen, bool) or not isinstance(chosen, int):
            # Not a type: the generic body says what is wrong.
            return UnsendableKindBody
        return self.by_type.get(chosen, UnsendableKindBody)

    def document(self) -> type[RootModel]:
        """The body as the API document describes it: one per kind, told apart by `_type`."""
        return _documented_body(tuple(self.by_type.values()))


# Once a process, not at every edge's start: a pydantic model takes about 2 ms of CPU to
# build, and the kinds (module constants) and their bodies never change.
@cache
def _documented_body(bodies: tuple[type[SendFields], ...]) -> type[RootModel]:
    described = Annotated[Union[bodies], Field(discriminator="message_type")]  # noqa: UP007
    return type("SendBody", (RootModel[described],), {"__doc__": SendBodies.__doc__})


@cache
def _kind_body(kind: MessageKind) -> type[SendFields]:
    """The body of a send of this kind: its `_type`, and `data` as the kind says."""
    # Only a chat message may leave `_type` out (the spec's default).
    default = MESSAGE_TYPE_CHAT if kind.type == MESSAGE_TYPE_CHAT else ...
    return create_model(
        f"Send{kind.data.__name__.removesuffix('Data')}Body",
        __base__=SendFields,
        __doc__=kind.data.__doc__,
        message_type=(Literal[kind.type], Field(default, alias="_type")),
        data=(kind.data | None, None),
    )


class MessagesBody(Body):
    session_id: str = ID
    greater_than_timestamp: Timestamp | None = None
    less_than_timestamp: Timestamp | None = None
    # The page a chat opens at one of its messages with (its `created_at`), alone.
    around_timestamp: Timestamp | None = None


class MembersBody(Body):
    session_id: str = ID
    cursor: str | None = Field(default=None, max_length=400)
    # The mention picker's text: members who read the chat, by name (no paging).
    search: str | None = Field(default=None, max_length=MEMBER_SEARCH_MAX_LENGTH)


class DeliveryBody(Body):
    session_id: str = ID
    created_at: Timestamp


class MessageEditBody(Body):
    """The sender's new text of their message (`created_at`), within the edit window."""

    session_id: str = ID
    created_at: Timestamp
    payload: str


class MessageDeleteBody(Body):
    session_id: str = ID
    created_at: Timestamp


class PinBody(Body):
    session_id: str = ID
    created_at: Timestamp
    pinned: bool


class PinsQuery(Query):
    session_id: str


class ChangedMessageReply(Reply):
    """The message as it is now (as the chat's `message_update` shows it)."""

    message: dict[str, Any]


class PinsReply(Reply):
    """The chat's pinned messages, the newest pin first."""

    pins: list[dict[str, Any]]


class ChatsBody(Body):
    cursor: str | None = Field(default=None, max_length=400)


class ByIdsBody(Body):
    user_ids: list[str] = IDS
    session_ids: list[str] = IDS
    session_with_user_ids: list[str] = IDS
    item_ids: list[str] = IDS


class SessionUpdateBody(Body):
    session_id: str = ID
    title: str | None = None
    description: str | None = None
    image: str | None = None
    is_public: bool | None = None
    is_read_allowed: bool | None = None
    # Seconds between one member's messages (0: off), one of SLOW_MODE_CHOICES; admins only.
    slow_mode_seconds: int | None = None


class MemberUpdateBody(Body):
    session_id: str = ID
    notification_flag: int | None = None
    for_user_id: str | None = Field(default=None, max_length=200)
    action: str | None = Field(default=None, max_length=30)


class MessageInfoQuery(Query):
    session_id: str
    created_at: int


class UrlPreviewQuery(Query):
    url: str


class ItemChatsReply(Reply):
    item: dict[str, Any]
    chats: list[dict[str, Any]]


class SendReply(Reply):
    """`type` 13 with the stored `inbox_message`, or -1 with `errors` (a refused send; with
    `retry_after_ms` under slow mode)."""

    type: int
    inbox_message: dict[str, Any] | None = None
    new_session_created: bool | None = None
    is_user_in_session: bool | None = None
    errors: str | list[Any] | dict[str, Any] | None = None
    # A send refused for now (slow mode): it may be sent again after this long.
    retry_after_ms: int | None = None


class MessagesReply(Reply):
    """`has_more`: older messages than these. A page `around_timestamp` also says whether
    there are more each way, and gives the cursor for the newer ones."""

    inbox_messages: list[dict[str, Any]]
    refs: dict[str, Any] | None = None
    has_more: bool
    next_less_than_timestamp: int | None = None
    has_more_before: bool | None = None
    has_more_after: bool | None = None
    next_greater_than_timestamp: int | None = None


class ChatsReply(Reply):
    sessions: list[dict[str, Any]]
    cursor: str | None = None
    has_more: bool


class MembersReply(Reply):
    session_users: list[dict[str, Any]]
    has_more: bool
    cursor: str | None = None
    session_users_count: int | None = None


class ByIdsReply(Reply):
    """Each map is id -> the object, holding only what the caller may read."""

    users: dict[str, dict[str, Any]]
    sessions: dict[str, dict[str, Any]]
    session_with_users: dict[str, dict[str, Any]]
    items: dict[str, dict[str, Any]]


class SessionReply(Reply):
    session: dict[str, Any]


class MemberReply(Reply):
    is_user_in_session: bool | None = None
    session_user: dict[str, Any] | None = None


class MessageInfoReply(Reply):
    info: dict[str, Any]


class UrlPreviewReply(Reply):
    image: str | None = None
    title: str | None = None
    description: str | None = None


def routes(
    *,
    sends: SendBodies,
    sending: Sending,
    pages: MessagePages,
    message_info: MessageInfo,
    changes: MessageChanges,
    chat_list: ChatList,
    members: MemberList,
    chat_settings: ChatSettings,
    moderation: Moderation,
    item_chats: ItemChats,
    lookups: Lookups,
    previews: LinkPreviewService,
) -> list[Route]:
    async def post_chats(request: web.Request) -> web.Response:
        body = await read_body(request, ItemChatsBody)
        caller = require_caller(request)
        item_id = request.match_info["item_id"]
        return ok(await item_chats.item_chats(caller, item_id, body.route_id))

    async def send(request: web.Request) -> web.Response:
        caller = require_caller(request)
        command = sends.checked(await read_object(request))
        return ok(await sending.send(caller, command))

    async def messages(request: web.Request) -> web.Response:
        body = await read_body(request, MessagesBody)
        if body.around_timestamp is not None:
            return ok(await messages_around(request, body, body.around_timestamp))
        return ok(
            await pages.messages_page(
                optional_caller(request),
                body.session_id,
                body.greater_than_timestamp,
                body.less_than_timestamp,
            )
        )

    async def messages_around(
        request: web.Request, body: MessagesBody, created_at: int
    ) -> dict[str, Any]:
        if body.greater_than_timestamp is not None or body.less_than_timestamp is not None:
            raise InvalidInput({"around_timestamp": AROUND_ALONE})
        return await pages.messages_around(optional_caller(request), body.session_id, created_at)

    async def member_page(request: web.Request) -> web.Response:
        body = await read_body(request, MembersBody)
        caller = optional_caller(request)
        if body.search and body.search.strip():
            return ok(await members.search(caller, body.session_id, body.search))
        return ok(await members.members(caller, body.session_id, body.cursor))

    async def chats(request: web.Request) -> web.Response:
        body = await read_body(request, ChatsBody)
        return ok(await chat_list.chats(require_caller(request), body.cursor))

    async def by_ids(request: web.Request) -> web.Response:
        body = await read_body(request, ByIdsBody)
        return ok(
            await lookups.by_ids(
                optional_caller(request),
                body.user_ids,
                body.session_ids,
                body.session_with_user_ids,
                body.item_ids,
            )
        )

    async def update_session(request: web.Request) -> web.Response:
        body = await read_body(request, SessionUpdateBody)
        changes = body.model_dump(exclude={"session_id"})
        caller = require_caller(request)
        return ok(await chat_settings.update_session(caller, body.session_id, changes))

    async def update_member(request: web.Request) -> web.Response:
        body = await read_body(request, MemberUpdateBody)
        return ok(
            await moderation.update_member(
                require_caller(request),
                body.session_id,
                notification_flag_value=body.notification_flag,
                for_user_id=body.for_user_id,
                action=body.action,
            )
        )

    async def delivery_info(request: web.Request) -> web.Response:
        session_id = request.query.get("session_id", "")[:200]
        created_at = bounded_int(request.query.get("created_at"), "created_at")
        caller = require_caller(request)
        return ok(await message_info.message_info(caller, session_id, created_at))

    async def edit_message(request: web.Request) -> web.Response:
        body = await read_body(request, MessageEditBody)
        caller = require_caller(request)
        return ok(await changes.edit(caller, body.session_id, body.created_at, body.payload))

    async def delete_message(request: web.Request) -> web.Response:
        body = await read_body(request, MessageDeleteBody)
        caller = require_caller(request)
        return ok(await changes.delete(caller, body.session_id, body.created_at))

    async def pin(request: web.Request) -> web.Response:
        body = await read_body(request, PinBody)
        caller = require_caller(request)
        return ok(await changes.pin(caller, body.session_id, body.created_at, body.pinned))

    async def pins(request: web.Request) -> web.Response:
        session_id = request.query.get("session_id", "")[:200]
        return ok(await changes.pins(optional_caller(request), session_id))

    async def url_preview(request: web.Request) -> web.Response:
        caller = require_caller(request)
        return ok(await previews.preview(caller, request.query.get("url", "")))

    return [
        Route(
            "POST",
            "/session/message/edit",
            edit_message,
            "Edits the caller's message (within the edit window)",
            auth=Auth.REQUIRED,
            body=MessageEditBody,
            reply=ChangedMessageReply,
        ),
        Route(
            "POST",
            "/session/message/delete",
            delete_message,
            "Deletes the caller's message, or (a group's moderators) another's",
            auth=Auth.REQUIRED,
            body=MessageDeleteBody,
            reply=ChangedMessageReply,
        ),
        Route(
            "POST",
            "/session/pin",
            pin,
            "Pins or unpins a message of a chat",
            auth=Auth.REQUIRED,
            body=PinBody,
            reply=PinsReply,
        ),
        Route(
            "GET",
            "/session/pins",
            pins,
            "A chat's pinned messages",
            query=PinsQuery,
            reply=PinsReply,
        ),
        Route(
            "GET",
            "/url_preview",
            url_preview,
            "Title, description and image of a web page",
            auth=Auth.REQUIRED,
            query=UrlPreviewQuery,
            reply=UrlPreviewReply,
        ),
        Route(
            "POST",
            r"/api/chats/{item_id:[0-9a-f]{24}}",
            post_chats,
            "The chats about a post, opening the caller's",
            auth=Auth.REQUIRED,
            body=ItemChatsBody,
            reply=ItemChatsReply,
        ),
        Route(
            "POST",
            "/session/send",
            send,
            "Sends a message",
            auth=Auth.REQUIRED,
            body=sends.document(),
            reply=SendReply,
        ),
        Route(
            "POST",
            "/session/messages",
            messages,
            "A page of a chat's messages",
            body=MessagesBody,
            reply=MessagesReply,
        ),
        Route(
            "POST",
            "/user/chats",
            chats,
            "The caller's chats",
            auth=Auth.REQUIRED,
            body=ChatsBody,
            reply=ChatsReply,
        ),
        Route(
            "POST",
            "/session/users",
            member_page,
            "A page of a chat's members",
            body=MembersBody,
            reply=MembersReply,
        ),
        Route(
            "POST",
            "/get_by_ids",
            by_ids,
            "Users, chats and posts by id (only what the caller may read)",
            body=ByIdsBody,
            reply=ByIdsReply,
        ),
        Route(
            "POST",
            "/session/update",
            update_session,
            "Changes a chat (its admins)",
            auth=Auth.REQUIRED,
            body=SessionUpdateBody,
            reply=SessionReply,
        ),
        Route(
            "POST",
            "/session/user/update",
            update_member,
            "Notifications of the caller, or moderation of a member",
            auth=Auth.REQUIRED,
            body=MemberUpdateBody,
            reply=MemberReply,
        ),
        Route(
            "GET",
            "/session/im_info",
            delivery_info,
            "Who received and read a message",
            auth=Auth.REQUIRED,
            query=MessageInfoQuery,
            reply=MessageInfoReply,
        ),
    ]
