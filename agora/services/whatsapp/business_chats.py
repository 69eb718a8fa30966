"""Business chats: one chat per channel and customer, between the customer and the channel's
group's agents (its admins and moderators), with the customer's reply window."""

import asyncio
from typing import Any

from agora.actors.client import SessionShards
from agora.core.chat.views import session_view, shared_session_view
from agora.core.clock import now_ms
from agora.core.message_kinds import ChatKinds
from agora.core.whatsapp.inbound import business_chat, business_chat_id, window_ends_at
from agora.core.whatsapp.kinds import is_business_agent
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat.memberships import Memberships
from agora.store.business_chats import BusinessChatStore
from agora.store.sessions import SessionStore


class BusinessChats:
    def __init__(
        self,
        *,
        store: BusinessChatStore,
        sessions: SessionStore,
        emitter: RealtimeEmitter,
        memberships: Memberships,
        shards: SessionShards,
        kinds: ChatKinds,
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.emitter = emitter
        self.memberships = memberships
        self.shards = shards
        self.kinds = kinds

    async def customer_wrote(
        self, channel: dict[str, Any], wa_id: str, profile_name: str | None, at: int
    ) -> dict[str, Any]:
        """The customer's chat, made on their first message, with every agent of the group in
        it, and its reply window running from this message (`at`, never in the future)."""
        now = now_ms()
        session_id = business_chat_id(channel["_id"], wa_id)
        at = min(at, now)
        moved = (session_id, at, window_ends_at(at), profile_name)
        chat = await self.store.customer_wrote(*moved)
        if chat is None:  # the customer's first message
            await self.store.open(business_chat(channel, wa_id, profile_name, now))
            chat = await self.store.customer_wrote(*moved)
            if chat is None:
                raise LookupError(f"the business chat {session_id} vanished")
        await self._agents_in(session_id, channel["group_id"])
        # Open screens move the window's countdown and the title.
        view = shared_session_view(session_view(chat, None, kinds=self.kinds))
        await self.emitter.to_session(session_id, "session", view)
        return chat

    async def member_type_changed(
        self, group_id: str, user_id: str, old_type: int, new_type: int
    ) -> None:
        """A group member who became an agent joins the group's business chats at once; one
        who stopped being one (blocked, say) leaves them at once, and their screens with them."""
        was, now = is_business_agent(old_type), is_business_agent(new_type)
        if was == now:
            return
        chat_ids = await self.store.chat_ids_of_group(group_id)
        for session_id in chat_ids:
            if now:
                await self.sessions.add_member(session_id, user_id, new_type)
                await self.memberships.member_joined(session_id, user_id, new_type)
            else:
                await self.sessions.remove_member(session_id, user_id)
            # The shard keeps the members it loaded: it must see who may write now.
            await self.shards.forget(session_id)
        if chat_ids and not now:
            await self.emitter.unfollow(user_id, chat_ids)

    async def _agents_in(self, session_id: str, group_id: str) -> None:
        """Agents who joined the group (or became moderators) since the chat's last message
        are added with their group type; their sockets follow the chat at once."""
        agents, members = await asyncio.gather(
            self.store.agents(group_id), self.sessions.member_types(session_id)
        )
        missing = {user_id: kind for user_id, kind in agents.items() if user_id not in members}
        for user_id, kind in missing.items():
            await self.sessions.add_member(session_id, user_id, kind)
            await self.memberships.member_joined(session_id, user_id, kind)
        if missing:
            # The shard keeps the members it loaded: it must see the new agents write.
            await self.shards.forget(session_id)
