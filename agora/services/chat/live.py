"""Live signals: typing."""

from agora.core.constants import TYPING_INTERVAL_SECONDS
from agora.services.accounts import Caller
from agora.services.chat.base import ChatBase


class LiveSignals(ChatBase):
    async def typing(self, caller: Caller, session_id: str) -> None:
        user_id = caller.user["_id"]
        await self._following(session_id, user_id)
        if await self.hints.allow_typing(session_id, user_id, TYPING_INTERVAL_SECONDS):
            await self.emitter.to_session(
                session_id,
                "typing",
                {"session_id": session_id, "user_id": user_id, "name": caller.user["name"]},
            )
