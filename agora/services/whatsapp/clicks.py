"""Tracked links of templates' URL buttons: a click is counted on its message
(`info.wa_click`, announced like a status) and sent on to the template's URL."""

from agora.core.errors import NotFound
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.store.whatsapp_statuses import WhatsAppFlags
from agora.store.whatsapp_templates import WhatsAppTemplateStore

NO_SUCH_LINK = "This link does not exist"
# Tokens are `secrets.token_urlsafe(18)`: 24 characters; anything much longer is not one.
TOKEN_MAX_LENGTH = 64


class WhatsAppClicks:
    def __init__(
        self, templates: WhatsAppTemplateStore, flags: WhatsAppFlags, statuses: WhatsAppStatuses
    ) -> None:
        self.templates = templates
        self.flags = flags
        self.statuses = statuses

    async def follow(self, token: str) -> str:
        """Where the link goes, after counting the click on its message."""
        link = await self.templates.link(token) if len(token) <= TOKEN_MAX_LENGTH else None
        if link is None:
            raise NotFound(NO_SUCH_LINK)
        message = await self.flags.add_click(link["session_id"], link["src_id"], link["local_id"])
        if message is None:  # the send was refused: nothing went out with this link
            raise NotFound(NO_SUCH_LINK)
        await self.statuses.announce(message)
        return link["url"]
