"""A customer's messages into their business chat: stored as type 1020 through the chat's
shard (so stored once however often Meta delivers them, sent to the agents' sockets and
told as `MessageStored`), media fetched from the Graph API and kept as uploads, reactions
set on the message they react to."""

import logging
from typing import Any

from agora.actors.client import SessionShards
from agora.actors.protocol import Stored, Unavailable
from agora.core.chat.views import message_view
from agora.core.errors import InvalidInput, PayloadTooLarge
from agora.core.message_kinds import ChatKinds
from agora.core.whatsapp.constants import MESSAGE_TYPE_WA_INBOUND, WHATSAPP_MEDIA_MAX_BYTES
from agora.core.whatsapp.inbound import customer_src_id
from agora.integrations.whatsapp.client import GraphApi, GraphError
from agora.integrations.whatsapp.webhooks import Change, InboundMessage, MediaRef, Reaction
from agora.realtime.emitter import RealtimeEmitter
from agora.services.chat.shard_sends import ShardSends
from agora.services.uploads import UploadService
from agora.services.whatsapp.business_chats import BusinessChats
from agora.services.whatsapp.channels import OpenChannel
from agora.store.business_chats import BusinessChatStore

log = logging.getLogger("agora.whatsapp")

MEDIA_NOT_KEPT = "The file could not be kept"


class TryLater(Exception):
    """Something outside could not be reached: the delivery is processed again later."""


class InboundMessages:
    def __init__(
        self,
        *,
        chats: BusinessChats,
        store: BusinessChatStore,
        uploads: UploadService,
        graph: GraphApi,
        emitter: RealtimeEmitter,
        shard_sends: ShardSends,
        shards: SessionShards,
        kinds: ChatKinds,
    ) -> None:
        self.chats = chats
        self.store = store
        self.uploads = uploads
        self.graph = graph
        self.emitter = emitter
        self.shard_sends = shard_sends
        self.shards = shards
        self.kinds = kinds

    async def receive(self, channel: OpenChannel, change: Change, final_attempt: bool) -> None:
        for message in change.messages:
            await self._one(channel, change.profiles.get(message.wa_id), message, final_attempt)

    async def _one(
        self,
        channel: OpenChannel,
        profile_name: str | None,
        message: InboundMessage,
        final_attempt: bool,
    ) -> None:
        chat = await self.chats.customer_wrote(
            channel.channel, message.wa_id, profile_name, message.at
        )
        session_id = chat["_id"]
        if message.reaction is not None:
            await self._react(session_id, message.wa_id, message.reaction)
            return
        data = message.data
        if message.media is not None:
            if await self.store.by_wamid(session_id, message.wamid) is not None:
                return  # delivered again: stored already, not fetched twice
            data = {**data, **await self._kept_media(channel, message, final_attempt)}
        # The shard recognises any other message delivered again by its local id (the wamid).
        outcome = await self.shard_sends.post_from_service(
            session_id,
            customer_src_id(message.wa_id),
            message.wamid,
            MESSAGE_TYPE_WA_INBOUND,
            message.text,
            data,
        )
        if isinstance(outcome, Unavailable):
            raise TryLater(f"the shard of {session_id} could not store a message")
        if not isinstance(outcome, Stored):
            log.warning("a WhatsApp message to %s was refused: %s", session_id, outcome)

    async def _kept_media(
        self, channel: OpenChannel, message: InboundMessage, final_attempt: bool
    ) -> dict[str, Any]:
        """`media_urls` with the file kept as an upload; on a refusal (or the last try),
        `media_error` instead."""
        media: MediaRef = message.media
        try:
            item = await self._download(channel, media, customer_src_id(message.wa_id))
        except GraphError as error:
            if error.status >= 500 and not final_attempt:
                raise TryLater(f"media {media.media_id}: {error}") from error
            log.warning("WhatsApp media %s was not kept: %s", media.media_id, error)
            return {"media_urls": [], "media_error": error.message or MEDIA_NOT_KEPT}
        except (InvalidInput, PayloadTooLarge) as error:
            log.warning("WhatsApp media %s was refused: %s", media.media_id, error.errors)
            return {"media_urls": [], "media_error": MEDIA_NOT_KEPT}
        return {"media_urls": [item]}

    async def _download(self, channel: OpenChannel, media: MediaRef, owner: str) -> dict:
        token = channel.keys.access_token
        found = await self.graph.media_url(media.media_id, token)
        url = found.get("url")
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            raise GraphError(400, 0, "Bad reply", "WhatsApp gave no link to the file")
        size = found.get("file_size")
        if isinstance(size, int) and size > WHATSAPP_MEDIA_MAX_BYTES:
            raise PayloadTooLarge("The file is too large")
        content = await self.graph.download(url, token, WHATSAPP_MEDIA_MAX_BYTES)
        mime_type = found.get("mime_type") if isinstance(found.get("mime_type"), str) else ""
        kept = await self.uploads.keep_file(
            owner, mime_type or media.mime_type, content, media.title
        )
        return {
            "url": kept["url"],
            "mime_type": kept["mime_type"],
            "title": kept["title"],
            "thumbnail": kept["thumbnail"],
            "size": kept["size"],
        }

    async def _react(self, session_id: str, wa_id: str, reaction: Reaction) -> None:
        """The customer's emoji on a message of the chat; the screens showing it update it."""
        target = await self.store.by_wamid(session_id, reaction.message_wamid)
        if target is None:
            log.info("a WhatsApp reaction in %s is on an unknown message", session_id)
            return
        updated = await self.store.set_reaction(target["_id"], wa_id, reaction.emoji)
        if updated is None:
            return
        # The shard serves recent pages from memory: it reads the session again.
        await self.shards.forget(session_id)
        view = message_view(updated, self.kinds)
        await self.emitter.to_session(
            session_id, "message_update", {"session_id": session_id, "message": view}
        )
