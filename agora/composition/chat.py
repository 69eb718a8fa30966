"""The chat: the Ray shards' clients, the membership changes they hear of, and the chat's
parts the edge calls."""

from collections.abc import Mapping
from dataclasses import dataclass

from agora.actors.client import SessionShards
from agora.actors.runtime import RayLink
from agora.actors.user_client import UserShards
from agora.actors.wiring import StoreFactory
from agora.composition.base import Foundation
from agora.services.chat import ChatParts
from agora.services.chat.access import ChatAccess
from agora.services.chat.chat_list import ChatList, UnseenCounts
from agora.services.chat.live import ChatRooms, Typing
from agora.services.chat.lookups import ItemChats, Lookups
from agora.services.chat.memberships import Memberships
from agora.services.chat.message_changes import MessageChanges
from agora.services.chat.moderation import ChatSettings, MemberList, Moderation
from agora.services.chat.reacting import Reacting
from agora.services.chat.reading import MessageInfo, MessagePages
from agora.services.chat.receipts import Receipts
from agora.services.chat.search import ChatSearch
from agora.services.chat.sending import PreparesSend, Sending
from agora.services.chat.shard_sends import ShardSends
from agora.services.chat.ticks import Ticks
from agora.services.items import PostReader
from agora.services.uploads import UploadService
from agora.store.chat_hints import ChatHints


@dataclass(frozen=True, kw_only=True)
class Shards:
    ray_link: RayLink  # the edge's connection to Ray, which the shard clients share
    users: UserShards
    sessions: SessionShards
    sends: ShardSends
    memberships: Memberships


def build_shards(base: Foundation) -> Shards:
    # How the Ray shards (other processes) build their stores.
    shard_stores = StoreFactory(settings=base.settings, chat_kinds=base.kinds)
    ray_link = RayLink(settings=base.settings)
    shard_maps = shard_stores.shard_maps(base.db)
    sessions = SessionShards(
        settings=base.settings, stores=shard_stores, link=ray_link, maps=shard_maps
    )
    sends = ShardSends(shards=sessions, events=base.events)
    return Shards(
        ray_link=ray_link,
        users=UserShards(
            settings=base.settings, stores=shard_stores, link=ray_link, maps=shard_maps
        ),
        sessions=sessions,
        sends=sends,
        memberships=Memberships(
            sessions=base.sessions,
            users=base.users,
            emitter=base.emitter,
            shards=sessions,
            shard_sends=sends,
        ),
    )


def build_chat(
    base: Foundation,
    *,
    shards: Shards,
    posts: PostReader,
    uploads: UploadService,
    sends: Mapping[int, PreparesSend],
) -> ChatParts:
    """The chat's parts the edge calls, each given what it uses; the read rule and the
    receipts' ticks are shared by those that need them. `sends`: what a plug-in kind's send
    needs checked with stores at hand, by message type."""
    sessions, messages, users = base.sessions, base.messages, base.users
    emitter, events, kinds = base.emitter, base.events, base.kinds
    hints = ChatHints(redis=base.redis, keys=base.keys)
    access = ChatAccess(sessions=sessions, posts=posts)
    ticks = Ticks(sessions=sessions, emitter=emitter, access=access)
    return ChatParts(
        kinds=kinds,
        sending=Sending(
            shards=shards.sessions,
            shard_sends=shards.sends,
            access=access,
            messages=messages,
            uploads=uploads,
            posts=posts,
            sessions=sessions,
            hints=hints,
            emitter=emitter,
            kinds=kinds,
            sends=sends,
        ),
        pages=MessagePages(
            access=access,
            shards=shards.sessions,
            messages=messages,
            sessions=sessions,
            users=users,
            kinds=kinds,
            ticks=ticks,
        ),
        changes=MessageChanges(
            shards=shards.sessions,
            access=access,
            messages=messages,
            sessions=sessions,
            kinds=kinds,
            events=events,
        ),
        message_info=MessageInfo(access=access, messages=messages, sessions=sessions, kinds=kinds),
        receipts=Receipts(access=access, messages=messages, sessions=sessions, ticks=ticks),
        chat_list=ChatList(
            access=access,
            posts=posts,
            sessions=sessions,
            messages=messages,
            shards=shards.sessions,
            emitter=emitter,
            kinds=kinds,
            ticks=ticks,
        ),
        unseen=UnseenCounts(sessions=sessions),
        rooms=ChatRooms(access=access, sessions=sessions),
        typing=Typing(access=access, hints=hints, emitter=emitter),
        members=MemberList(access=access, sessions=sessions, users=users),
        chat_settings=ChatSettings(
            access=access,
            sessions=sessions,
            shards=shards.sessions,
            events=events,
            emitter=emitter,
            kinds=kinds,
        ),
        moderation=Moderation(
            sessions=sessions,
            events=events,
            emitter=emitter,
            kinds=kinds,
            memberships=shards.memberships,
        ),
        item_chats=ItemChats(
            access=access, posts=posts, sessions=sessions, hints=hints, kinds=kinds
        ),
        lookups=Lookups(access=access, posts=posts, sessions=sessions, users=users, kinds=kinds),
        reacting=Reacting(shards=shards.sessions),
        search=ChatSearch(
            access=access, messages=messages, sessions=sessions, users=users, kinds=kinds
        ),
    )
