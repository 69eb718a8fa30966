"""What most features' builders take: the settings, the connections, the event publisher,
the realtime emitter, the chat's kinds and the stores several features share."""

from dataclasses import dataclass
from typing import Any

from agora.core.chat.checks import CHAT_MESSAGE_KINDS
from agora.core.message_kinds import ChatKinds
from agora.core.whatsapp.kinds import BUSINESS_CHATS, WHATSAPP_MESSAGE_KINDS
from agora.integrations.web_pages import PageFetcher
from agora.realtime.emitter import RealtimeEmitter
from agora.realtime.transport import RoomChannelManager
from agora.services.events import Events
from agora.settings import Settings
from agora.store.groups import GroupStore
from agora.store.items import ItemStore
from agora.store.marks_copies import MarksCopies
from agora.store.messages import MessageStore
from agora.store.rate_limits import RateLimiter
from agora.store.redis import Keys
from agora.store.session_copies import SessionCopies, session_copies
from agora.store.sessions import SessionStore
from agora.store.users import UserStore


def chat_kinds() -> ChatKinds:
    """The message kinds chat knows: its own, and those WhatsApp brings with its business
    chats (`core.message_kinds`)."""
    return ChatKinds(
        messages=[*CHAT_MESSAGE_KINDS, *WHATSAPP_MESSAGE_KINDS], conversations=[BUSINESS_CHATS]
    )


@dataclass(frozen=True, kw_only=True)
class Foundation:
    settings: Settings
    db: Any
    redis: Any
    keys: Keys
    events: Events
    limits: RateLimiter
    emitter: RealtimeEmitter
    kinds: ChatKinds
    # What fetches outside pages (link previews, images kept from a URL).
    fetcher: PageFetcher
    users: UserStore
    # Groups and memberships, as the group and chat stores keep them on this edge.
    copies: SessionCopies
    groups: GroupStore
    items: ItemStore
    sessions: SessionStore
    messages: MessageStore


def build_foundation(
    *,
    settings: Settings,
    db: Any,
    redis: Any,
    page_fetcher: PageFetcher | None,
    sockets: RoomChannelManager | None,
) -> Foundation:
    keys = Keys(prefix=settings.redis_prefix)
    copies = session_copies(redis, keys)
    return Foundation(
        settings=settings,
        db=db,
        redis=redis,
        keys=keys,
        events=Events(),
        limits=RateLimiter(redis=redis, keys=keys),
        emitter=RealtimeEmitter(settings=settings, manager=sockets),
        kinds=chat_kinds(),
        fetcher=page_fetcher or PageFetcher(),
        users=UserStore(db=db, redis=redis, keys=keys),
        copies=copies,
        groups=GroupStore(db=db, copies=copies),
        items=ItemStore(db=db, redis=redis, keys=keys),
        sessions=SessionStore(db=db, copies=copies, marks=MarksCopies(redis=redis, keys=keys)),
        messages=MessageStore(db=db),
    )
