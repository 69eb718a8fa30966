"""WhatsApp templates: synced by a group's admins, listed to a business chat's agents."""

from typing import Any

from aiohttp import web
from pydantic import Field

from agora.http.replies import ok
from agora.http.requests import require_caller
from agora.http.routes import Auth, Query, Reply, Route
from agora.http.whatsapp.channel import CHANNEL_PATH
from agora.services.whatsapp.templates import WhatsAppTemplates


class TemplatesQuery(Query):
    session_id: str = Field(max_length=200)


class TemplatesReply(Reply):
    """Meta's components: HEADER {format, text}, BODY {text with {{1}}}, FOOTER {text},
    BUTTONS {buttons: [{type: QUICK_REPLY|URL|PHONE_NUMBER, text, url}]}."""

    templates: list[dict[str, Any]]


def routes(templates: WhatsAppTemplates) -> list[Route]:
    async def sync(request: web.Request) -> web.Response:
        caller = require_caller(request)
        return ok(await templates.sync(caller, request.match_info["group_id"]))

    async def listed(request: web.Request) -> web.Response:
        caller = require_caller(request)
        session_id = request.query.get("session_id", "")[:200]
        return ok(await templates.for_session(caller, session_id))

    return [
        Route(
            "POST",
            f"{CHANNEL_PATH}/templates/sync",
            sync,
            "Syncs the channel's approved templates from WhatsApp (group admins)",
            auth=Auth.REQUIRED,
            reply=TemplatesReply,
        ),
        Route(
            "GET",
            "/api/whatsapp/templates",
            listed,
            "The approved templates an agent may send in this business chat",
            auth=Auth.REQUIRED,
            query=TemplatesQuery,
            reply=TemplatesReply,
        ),
    ]
