"""Steps the WhatsApp tests share: a group with a connected channel, signed deliveries."""

import uuid
from dataclasses import dataclass

from aiohttp.test_utils import TestClient

from agora.app import WHATSAPP
from tests.integration.helpers import Member, member, new_group
from tests.mail import SmtpSink
from tests.whatsapp_signing import encoded
from tests.whatsapp_standin import Number, WhatsAppStandin


@dataclass
class Business:
    """A group whose admin connected a WhatsApp number."""

    edge: TestClient
    admin: Member
    group_id: str
    number: Number
    channel: dict
    app_secret: str
    verify_token: str

    def chat_id(self, wa_id: str) -> str:
        return f"wa_{self.channel['_id']}_{wa_id}"

    async def deliver(self, body: dict, *, secret: str | None = None, headers=None) -> int:
        """Posts the body signed as Meta does (with another secret if given); the status."""
        raw, signed = encoded(body, secret or self.app_secret)
        reply = await self.edge.post(
            "/webhooks/whatsapp", data=raw, headers=signed if headers is None else headers
        )
        return reply.status

    async def settled(self) -> None:
        """Every accepted delivery on this edge is processed."""
        await self.edge.server.app[WHATSAPP].webhooks.settled()


async def connected_business(
    edge: TestClient,
    sink: SmtpSink,
    standin: WhatsAppStandin,
    admin: Member | None = None,
    group_id: str | None = None,
) -> Business:
    """`admin`'s group (a new one unless given) with a WhatsApp number connected."""
    admin = admin or await member(edge, sink, "Admin")
    group_id = group_id or await new_group(admin)
    number = standin.add_number()
    app_secret = f"secret-{uuid.uuid4().hex}"
    verify_token = f"verify-{uuid.uuid4().hex}"
    body = connect_body(number, app_secret, verify_token)
    reply = await admin.call(f"/api/groups/{group_id}/whatsapp", body)
    return Business(edge, admin, group_id, number, reply["channel"], app_secret, verify_token)


def connect_body(number: Number, app_secret: str, verify_token: str) -> dict:
    return {
        "phone_number_id": number.phone_number_id,
        "business_account_id": number.business_account_id,
        "access_token": number.access_token,
        "app_secret": app_secret,
        "verify_token": verify_token,
    }
