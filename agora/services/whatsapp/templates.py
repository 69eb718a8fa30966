"""A channel's approved templates: synced from the Graph API by the group's admins, listed
to the agents of its business chats (the picker fills them)."""

from typing import Any

from agora.core.chat.access import NO_SUCH_CHAT, hidden_from
from agora.core.chat.constants import USER_TYPE_MODERATOR
from agora.core.clock import now_ms
from agora.core.errors import Forbidden, InvalidInput, NotFound, Unavailable
from agora.core.whatsapp.constants import SESSION_KIND_BUSINESS
from agora.integrations.whatsapp.client import UNREACHABLE_STATUS, GraphApi, GraphError
from agora.integrations.whatsapp.templates import template_view
from agora.services.accounts import Caller
from agora.services.whatsapp.channels import WhatsAppChannels
from agora.services.whatsapp.outbound import business_of
from agora.store.sessions import SessionStore
from agora.store.whatsapp_templates import WhatsAppTemplateStore

TEMPLATE_FIELDS = ("name", "language", "category", "components")


class WhatsAppTemplates:
    def __init__(
        self,
        *,
        channels: WhatsAppChannels,
        graph: GraphApi,
        store: WhatsAppTemplateStore,
        sessions: SessionStore,
    ) -> None:
        self.channels = channels
        self.graph = graph
        self.store = store
        self.sessions = sessions

    async def sync(self, caller: Caller, group_id: str) -> dict[str, Any]:
        """The group's channel's templates as WhatsApp lists them now (admins); only the
        approved ones we can fill are kept."""
        view = (await self.channels.view(caller, group_id))["channel"]
        opened = await self.channels.get(view["_id"]) if view else None
        if opened is None:
            raise NotFound("This group has no WhatsApp channel")
        try:
            listed = await self.graph.templates(
                opened.channel["business_account_id"], opened.keys.access_token
            )
        except GraphError as error:
            if error.status >= 500 or error.status == UNREACHABLE_STATUS:
                raise Unavailable("WhatsApp could not be reached, please try again") from error
            raise InvalidInput({"templates": f"WhatsApp refused it: {error.message}"}) from error
        kept = [view for template in listed if (view := template_view(template))]
        at = now_ms()
        await self.store.replace(opened.id, kept, at)
        await self.store.mark_synced(opened.id, at)
        return await self._listed(opened.id)

    async def for_session(self, caller: Caller, session_id: str) -> dict[str, Any]:
        """The templates an agent of this business chat may send in it."""
        session = await self.sessions.get(session_id)
        membership = await self.sessions.membership(session_id, caller.user["_id"])
        kind = membership["session_user_type"] if membership else None
        business = session is not None and session.get("kind") == SESSION_KIND_BUSINESS
        if not business or hidden_from(session, kind):
            raise NotFound({"session_id": NO_SUCH_CHAT})
        if kind is None or kind > USER_TYPE_MODERATOR:
            raise Forbidden({"session_id": "Only the chat's agents send templates"})
        return await self._listed(business_of(session).get("channel_id", ""))

    async def _listed(self, channel_id: str) -> dict[str, Any]:
        found = await self.store.of_channel(channel_id)
        return {"templates": [{key: t[key] for key in TEMPLATE_FIELDS} for t in found]}
