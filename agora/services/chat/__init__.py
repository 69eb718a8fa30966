"""Chat (spec: sessions): item chats, sending, reading, receipts, the chat list, lookups by
id, settings, moderation, search and live signals.

Each use case is a class of its own that takes only the collaborators it uses; the
composition root (`agora/app.py`) builds them and hands each to whoever calls it. What
several of them share is a collaborator of its own: the read rule (`access.ChatAccess`),
the hand-off to the shards (`shard_sends.ShardSends`, also services' notices), the ticks a
receipt moves (`ticks.Ticks`) and what follows a membership change
(`memberships.Memberships`). The use cases do not import each other (`make lint`).
"""

from dataclasses import dataclass

from agora.core.message_kinds import ChatKinds
from agora.services.chat.chat_list import ChatList, UnseenCounts
from agora.services.chat.live import ChatRooms, Typing
from agora.services.chat.lookups import ItemChats, Lookups
from agora.services.chat.message_changes import MessageChanges
from agora.services.chat.moderation import ChatSettings, MemberList, Moderation
from agora.services.chat.reacting import Reacting
from agora.services.chat.reading import MessageInfo, MessagePages
from agora.services.chat.receipts import Receipts
from agora.services.chat.search import ChatSearch
from agora.services.chat.sending import Sending


@dataclass(frozen=True, kw_only=True)
class ChatParts:
    """The parts the edge calls (its handlers call each directly), and the message kinds it
    reads sends by."""

    kinds: ChatKinds
    sending: Sending
    pages: MessagePages
    message_info: MessageInfo
    changes: MessageChanges
    receipts: Receipts
    chat_list: ChatList
    unseen: UnseenCounts
    rooms: ChatRooms
    typing: Typing
    members: MemberList
    chat_settings: ChatSettings
    moderation: Moderation
    item_chats: ItemChats
    lookups: Lookups
    reacting: Reacting
    search: ChatSearch
