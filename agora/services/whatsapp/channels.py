"""Connecting a group's WhatsApp channel, and the channels' secrets for those who need them
(the webhooks, media downloads and sends)."""

import logging
import time
from dataclasses import dataclass
from typing import Any

from agora.core.errors import Conflict, Forbidden, InvalidInput, NotFound, Unavailable
from agora.core.groups import is_admin
from agora.core.sealing import SecretBox, Unsealable
from agora.core.whatsapp.channel import (
    SECRET_FIELDS,
    ChannelKeys,
    channel_view,
    check_connect,
    secret_place,
)
from agora.integrations.whatsapp.client import GraphApi, GraphError
from agora.services.accounts import Caller
from agora.services.groups import GroupService
from agora.store.whatsapp_channels import ChannelTaken, WhatsAppChannelStore

log = logging.getLogger("agora.whatsapp")

SEALING_PURPOSE = "whatsapp channel secrets"
ADMINS_ONLY = "Only the group's admins can manage its WhatsApp channel"
NUMBER_TAKEN = "This number is connected to another group"
# Meta's codes for a token it does not take (any other refusal is about the number).
BAD_TOKEN_CODES = (190, 10, 200)
# How long this edge trusts its list of enabled channels (webhooks check every signature
# against it); a change made on this edge is seen at once.
ENABLED_COPY_SECONDS = 1.0


@dataclass(frozen=True)
class OpenChannel:
    """An enabled channel with its secrets opened."""

    channel: dict[str, Any]
    keys: ChannelKeys

    @property
    def id(self) -> str:
        return self.channel["_id"]


class WhatsAppChannels:
    def __init__(
        self,
        *,
        public_base_url: str,
        channels: WhatsAppChannelStore,
        graph: GraphApi,
        groups: GroupService,
        secret_key: str,
    ) -> None:
        self.public_base_url = public_base_url
        self.channels = channels
        self.graph = graph
        self.groups = groups
        self.box = SecretBox(secret_key, SEALING_PURPOSE)
        self._enabled: list[OpenChannel] = []
        # Secrets that did not open, told in the log once.
        self._unopened: set[tuple[str, str]] = set()
        self._enabled_at = float("-inf")

    async def _admin_of(self, caller: Caller, group_id: str) -> None:
        _, membership = await self.groups.readable(group_id, caller)
        if not is_admin(membership):
            raise Forbidden(ADMINS_ONLY)

    async def view(self, caller: Caller, group_id: str) -> dict[str, Any]:
        await self._admin_of(caller, group_id)
        return channel_view(await self.channels.for_group(group_id), self.public_base_url)

    async def connect(
        self, caller: Caller, group_id: str, given: dict[str, str | None]
    ) -> dict[str, Any]:
        """Checks the number with the Graph API (with the token given, or the one kept), then
        stores the channel; a secret left empty on update keeps the stored one."""
        await self._admin_of(caller, group_id)
        existing = await self.channels.for_group(group_id)
        kept, errors = check_connect(given, connected=existing is not None)
        if errors:
            raise InvalidInput(errors)
        other = await self.channels.with_number(kept["phone_number_id"])
        if other is not None and other["group_id"] != group_id:
            raise InvalidInput({"phone_number_id": NUMBER_TAKEN})
        access_token = kept.get("access_token") or self.keys(existing).access_token
        number = await self._checked_number(kept["phone_number_id"], access_token)
        channel_id = existing["_id"] if existing else self.channels.new_id()
        secrets = {name: kept.pop(name) for name in SECRET_FIELDS if name in kept}
        sealed = {
            name: self.box.seal(value, secret_place(channel_id, name))
            for name, value in secrets.items()
        }
        fields = {**kept, "display_phone_number": number}
        try:
            channel = await self.channels.save(channel_id, group_id, fields, sealed)
        except ChannelTaken as error:
            raise Conflict("The channel was changed at the same time, please try again") from error
        self._enabled_at = float("-inf")
        return channel_view(channel, self.public_base_url)

    async def _checked_number(self, phone_number_id: str, access_token: str) -> str:
        """The number's display form, as the Graph API knows it with this token."""
        try:
            number = await self.graph.phone_number(phone_number_id, access_token)
        except GraphError as error:
            if error.status >= 500:  # unreachable too
                raise Unavailable("WhatsApp could not be reached, please try again") from error
            field = "access_token" if error.code in BAD_TOKEN_CODES else "phone_number_id"
            raise InvalidInput({field: f"WhatsApp refused it: {error.message}"}) from error
        display = number.get("display_phone_number")
        if not isinstance(display, str) or not display:
            raise InvalidInput({"phone_number_id": "WhatsApp does not know this number"})
        return display[:64]

    async def set_enabled(self, caller: Caller, group_id: str, enabled: bool) -> dict[str, Any]:
        await self._admin_of(caller, group_id)
        channel = await self.channels.set_enabled(group_id, enabled)
        if channel is None:
            raise NotFound("This group has no WhatsApp channel")
        self._enabled_at = float("-inf")
        return channel_view(channel, self.public_base_url)

    def keys(self, channel: dict[str, Any] | None) -> ChannelKeys:
        """The channel's secrets, opened (empty where one does not open)."""
        sealed = (channel or {}).get("secrets", {})
        opened = {name: self._open(channel, name, sealed.get(name)) for name in SECRET_FIELDS}
        return ChannelKeys(**opened)

    def _open(self, channel: dict[str, Any] | None, name: str, sealed: str | None) -> str:
        if channel is None or not sealed:
            return ""
        try:
            return self.box.open(sealed, secret_place(channel["_id"], name))
        except Unsealable:
            # Sealed under another AGORA_SECRET_KEY: the channel must be connected again.
            if (channel["_id"], name) not in self._unopened:
                self._unopened.add((channel["_id"], name))
                log.warning("the %s of WhatsApp channel %s does not open", name, channel["_id"])
            return ""

    async def enabled(self) -> list[OpenChannel]:
        """Every enabled channel with its secrets, from a copy at most a second old."""
        if time.monotonic() - self._enabled_at > ENABLED_COPY_SECONDS:
            found = await self.channels.enabled()
            self._enabled = [OpenChannel(c, self.keys(c)) for c in found]
            self._enabled_at = time.monotonic()
        return self._enabled

    async def get(self, channel_id: str) -> OpenChannel | None:
        channel = await self.channels.get(channel_id)
        return OpenChannel(channel, self.keys(channel)) if channel else None

    async def event_received(self, channel_id: str, at: int) -> None:
        await self.channels.event_received(channel_id, at)
