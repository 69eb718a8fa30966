"""Messages handed to their session's shard, which stores them and sends them to the session's
room: a member's send (`Sending`) and the messages services post (notices, a WhatsApp
customer's messages). A message stored now is told as `MessageStored`, whoever sent it."""

import asyncio
import functools
from typing import Any

from agora.actors.client import SessionShards
from agora.actors.protocol import SendOutcome, Stored, StoreMessage
from agora.core.chat.constants import MESSAGE_TYPE_SYSTEM
from agora.services.events import Events, MessageStored
from agora.tools.background import BackgroundTasks


class ShardSends:
    def __init__(self, *, shards: SessionShards, events: Events) -> None:
        self.shards = shards
        self.events = events
        # What shards answered after their senders had been told to send again.
        self.late_replies = BackgroundTasks()

    async def send(self, message: StoreMessage) -> SendOutcome:
        """The shard's outcome; a message it stored just now is told as `MessageStored`."""
        answer = self.shards.send(message)
        try:
            outcome = await asyncio.shield(answer)
        except asyncio.CancelledError:
            # The sender was answered before the shard (a store or Ray that did not answer
            # in time): a message the shard stores after all is told all the same.
            answer.add_done_callback(functools.partial(self._answered_late, message))
            raise
        await self._tell_stored(message, outcome)
        return outcome

    def _answered_late(self, message: StoreMessage, answer: "asyncio.Future[SendOutcome]") -> None:
        if not answer.cancelled() and answer.exception() is None:
            self.late_replies.start(self._tell_stored(message, answer.result()))

    async def _tell_stored(self, message: StoreMessage, outcome: SendOutcome) -> None:
        if isinstance(outcome, Stored) and outcome.stored_now:
            members = None if outcome.members is None else tuple(outcome.members)
            stored = MessageStored(
                message.session_id, message.src_id, outcome.message, members, outcome.seq
            )
            await self.events.publish(stored)

    async def post_notice(
        self, session_id: str, src_id: str, local_id: str, text: str, data: dict[str, Any]
    ) -> SendOutcome:
        """A system notice (type 1010); `local_id` makes a repeated notice appear once."""
        return await self.post_from_service(
            session_id, src_id, local_id, MESSAGE_TYPE_SYSTEM, text, data
        )

    async def post_from_service(
        self,
        session_id: str,
        src_id: str,
        local_id: str,
        message_type: int,
        text: str,
        data: dict[str, Any],
    ) -> SendOutcome:
        """A message a service posts (a notice, a customer's message): stored, sent to
        the session's room and told as `MessageStored` like any other; `local_id` makes a
        repeated one appear once. The shard's outcome, as for a send."""
        return await self.send(
            StoreMessage(
                session_id=session_id,
                src_id=src_id,
                local_id=local_id,
                type=message_type,
                payload=text,
                data=data,
            )
        )
