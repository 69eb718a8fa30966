"""Searching a chat's history (`/session/search`): its readers find its messages by their
words, newest first, a page at a time."""

import asyncio
from typing import Any

from agora.core.accounts import user_card
from agora.core.chat.views import message_view_for
from agora.core.chat_search import CHAT_SEARCH_PAGE, search_words
from agora.core.message_kinds import ChatKinds
from agora.services.accounts import Caller
from agora.services.chat.access import ChatAccess
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from agora.store.users import UserStore


class ChatSearch:
    def __init__(
        self,
        *,
        access: ChatAccess,
        messages: MessageStore,
        sessions: SessionStore,
        users: UserStore,
        kinds: ChatKinds,
    ) -> None:
        self.access = access
        self.messages = messages
        self.sessions = sessions
        self.users = users
        self.kinds = kinds

    async def search(
        self, caller: Caller, session_id: str, text: str, before: int | None
    ) -> dict[str, Any]:
        """The chat's messages holding every word of `text`, newest first, older than
        `before` (the previous page's `next_less_than_timestamp`) when given. Whoever may
        read the chat may search it (`ChatAccess.readable`), and is refused as a read is."""
        words = search_words(text)
        chat, _ = await self.access.readable(caller, session_id)
        found, marks = await asyncio.gather(
            self.messages.search(session_id, words, before=before, limit=CHAT_SEARCH_PAGE + 1),
            self.sessions.ticks_marks(chat),
        )
        page, has_more = found[:CHAT_SEARCH_PAGE], len(found) > CHAT_SEARCH_PAGE
        senders = await self.users.by_ids([m["src_id"] for m in page])
        return {
            "inbox_messages": [message_view_for(m, marks, self.kinds) for m in page],
            "refs": {"users": {u["_id"]: user_card(u) for u in senders}},
            "words": words,
            "has_more": has_more,
            "next_less_than_timestamp": page[-1]["created_at"] if has_more else None,
        }
