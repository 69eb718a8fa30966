"""A group's WhatsApp channel, for its admins: see it, connect or update it, turn it on/off."""

from typing import Any

from aiohttp import web
from pydantic import Field

from agora.core.whatsapp.constants import WHATSAPP_ID_MAX_LENGTH, WHATSAPP_SECRET_MAX_LENGTH
from agora.http.replies import ok
from agora.http.requests import Body, read_body, require_caller
from agora.http.routes import Auth, Reply, Route
from agora.services.whatsapp.channels import WhatsAppChannels

CHANNEL_PATH = r"/api/groups/{group_id:[^/]{1,200}}/whatsapp"
CONNECT_BODY_MAX_BYTES = 16 * 1024
# Validated again (trimmed, digits, printable) by the channel rules: here only the types and
# an upper bound, so that a wrong field is a 400 with its name.
IdText = Field(default=None, max_length=WHATSAPP_ID_MAX_LENGTH * 4)
SecretText = Field(default=None, max_length=WHATSAPP_SECRET_MAX_LENGTH * 2)


class ConnectBody(Body):
    """All required on first connect; on update an empty or missing secret keeps the stored
    one."""

    phone_number_id: str | None = IdText
    business_account_id: str | None = IdText
    access_token: str | None = SecretText
    app_secret: str | None = SecretText
    verify_token: str | None = SecretText


class ChannelReply(Reply):
    """`channel` is null until connected; it never holds a secret, only `has_<secret>`."""

    channel: dict[str, Any] | None


def routes(channels: WhatsAppChannels) -> list[Route]:
    async def view(request: web.Request) -> web.Response:
        caller = require_caller(request)
        return ok(await channels.view(caller, request.match_info["group_id"]))

    async def connect(request: web.Request) -> web.Response:
        caller = require_caller(request)
        body = await read_body(request, ConnectBody, max_bytes=CONNECT_BODY_MAX_BYTES)
        group_id = request.match_info["group_id"]
        return ok(await channels.connect(caller, group_id, body.model_dump()))

    def switch(enabled: bool):
        async def handler(request: web.Request) -> web.Response:
            caller = require_caller(request)
            group_id = request.match_info["group_id"]
            return ok(await channels.set_enabled(caller, group_id, enabled))

        return handler

    return [
        Route(
            "GET",
            CHANNEL_PATH,
            view,
            "The group's WhatsApp channel (group admins)",
            auth=Auth.REQUIRED,
            reply=ChannelReply,
        ),
        Route(
            "POST",
            CHANNEL_PATH,
            connect,
            "Connects or updates the group's WhatsApp channel, checked with WhatsApp (admins)",
            auth=Auth.REQUIRED,
            body=ConnectBody,
            reply=ChannelReply,
            errors=(409,),
        ),
        Route(
            "POST",
            f"{CHANNEL_PATH}/disable",
            switch(False),
            "Stops the group's WhatsApp channel: no webhook is taken, nothing is sent (admins)",
            auth=Auth.REQUIRED,
            reply=ChannelReply,
        ),
        Route(
            "POST",
            f"{CHANNEL_PATH}/enable",
            switch(True),
            "Starts the group's WhatsApp channel again (admins)",
            auth=Auth.REQUIRED,
            reply=ChannelReply,
        ),
    ]
