"""The chat's side of an offer given in it: the chat shows it (`data.last_offer`)."""

from typing import Any

from agora.core.chat.views import session_view, shared_session_view
from agora.core.message_kinds import ChatKinds
from agora.realtime.emitter import RealtimeEmitter
from agora.store.sessions import SessionStore


class LastOffer:
    def __init__(
        self, *, sessions: SessionStore, emitter: RealtimeEmitter, kinds: ChatKinds
    ) -> None:
        self.sessions = sessions
        self.emitter = emitter
        self.kinds = kinds

    async def offer_given(self, cs_id: str, offer: dict[str, Any]) -> None:
        """The chat remembers its latest offer (`data.last_offer`), so both people's screens
        show it was given, now and after a reload."""
        updated = await self.sessions.update(cs_id, {"data.last_offer": offer})
        if updated is not None:
            view = shared_session_view(session_view(updated, None, kinds=self.kinds))
            await self.emitter.to_session(cs_id, "session", view)
