"""A post's item chats (`ItemChats`), and users, chats and posts by id (`Lookups`)."""

from typing import Any

from agora.core.accounts import user_card
from agora.core.chat.item_chats import item_chat_id, item_chat_session
from agora.core.chat.views import session_view
from agora.core.clock import now_ms
from agora.core.items import item_view
from agora.core.message_kinds import ChatKinds
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess, deleted_posts, post_of
from agora.services.items import PostReader
from agora.store.chat_hints import ChatHints
from agora.store.sessions import SessionStore
from agora.store.users import UserStore


class ItemChats:
    def __init__(
        self,
        *,
        access: ChatAccess,
        posts: PostReader,
        sessions: SessionStore,
        hints: ChatHints,
        kinds: ChatKinds,
    ) -> None:
        self.access = access
        self.posts = posts
        self.sessions = sessions
        self.hints = hints
        self.kinds = kinds

    async def item_chats(
        self, caller: Caller, item_id: str, route_id: str | None
    ) -> dict[str, Any]:
        """The owner gets every chat about the post; anyone else their own, maybe a dummy,
        if they may read the post."""
        item, _, _ = await self.posts.readable(caller, item_id)
        if route_id:
            await self.posts.check_route(item, route_id)
        user_id = caller.user["_id"]
        is_owner = item["user_id"] == user_id
        if is_owner:
            chats = await self.sessions.item_chats(item_id)
        else:
            chat_id = item_chat_id(item_id, user_id)
            stored = await self.sessions.get(chat_id)
            if stored is None and route_id:
                await self.hints.remember_route(chat_id, route_id)
            chats = [
                stored or {**item_chat_session(item, user_id, route_id, now_ms()), "is_dummy": True}
            ]
        member_of = await self.sessions.memberships_for_user(user_id, [c["_id"] for c in chats])
        # An asker blocked in their chat sees it, but nothing of its messages.
        readable = await self.access.may_read_all(
            caller, [(c, member_of.get(c["_id"])) for c in chats]
        )
        shown = item_view(item, logged_in=True)
        return {
            "item": shown,
            "chats": [
                {
                    "session": session_view(
                        chat,
                        member_of.get(chat["_id"]),
                        kinds=self.kinds,
                        readable=chat["_id"] in readable,
                    ),
                    "item": shown,
                    "is_item_owner": is_owner,
                    "is_user_in_session": chat["_id"] in member_of,
                }
                for chat in chats
            ],
        }


class Lookups:
    def __init__(
        self,
        *,
        access: ChatAccess,
        posts: PostReader,
        sessions: SessionStore,
        users: UserStore,
        kinds: ChatKinds,
    ) -> None:
        self.access = access
        self.posts = posts
        self.sessions = sessions
        self.users = users
        self.kinds = kinds

    async def by_ids(
        self,
        caller: Caller | None,
        user_ids: list[str],
        session_ids: list[str],
        session_with_user_ids: list[str],
        item_ids: list[str],
    ) -> dict[str, Any]:
        users = await self.users.by_ids(user_ids)
        wanted_sessions = list({*session_ids, *session_with_user_ids})
        found = await self.sessions.by_ids(wanted_sessions)
        member_of = (
            await self.sessions.memberships_for_user(caller.user["_id"], [c["_id"] for c in found])
            if caller
            else {}
        )
        with_membership = [(chat, member_of.get(chat["_id"])) for chat in found]
        shown = await self.access.may_read_all(caller, with_membership)
        gone = await deleted_posts(self.posts, found)
        readable = {
            chat["_id"]: session_view(
                chat, membership, kinds=self.kinds, post_deleted=post_of(chat) in gone
            )
            for chat, membership in with_membership
            if chat["_id"] in shown
        }
        with_users = {}
        for session_id in session_with_user_ids:
            if session_id in readable:
                members = await self.sessions.member_types(session_id)
                people = {u["_id"]: u for u in await self.users.by_ids(list(members))}
                with_users[session_id] = {
                    "session": readable[session_id],
                    "session_users": [
                        {"user_id": u, "session_user_type": t, "user": user_card(people.get(u))}
                        for u, t in members.items()
                    ],
                }
        items = await self.posts.readable_many(caller, item_ids)
        logged_in = caller is not None
        return {
            "users": {u["_id"]: user_card(u) for u in users},
            "sessions": {sid: readable[sid] for sid in session_ids if sid in readable},
            "session_with_users": with_users,
            "items": {i["_id"]: item_view(i, logged_in=logged_in) for i in items},
        }
