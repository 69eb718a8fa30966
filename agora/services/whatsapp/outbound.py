"""Agents' replies to WhatsApp customers (1018 text, 1019 rich, 1021 template).

Before the shard stores one, `BusinessSends.prepare` checks what the shard cannot know: the
24-hour window, the attached files' kinds, the message answered, and for a template the
synced template it fills (URL buttons become tracked links). Once stored (`MessageStored`),
`WhatsAppOutbound` sends it through the Graph API in a task of its own, off the send's
acknowledgement, and records the outcome in the message's flags: `s1` and the wamid, `wa_f`
with Meta's errors, or `wa_ns` when the channel is off or the template cannot be paid for.
"""

import asyncio
import logging
import secrets
from dataclasses import replace
from decimal import Decimal
from typing import Any

from agora.core.chat.access import NO_SUCH_CHAT, hidden_from
from agora.core.chat.checks import NOT_IN_THIS_CHAT, Outgoing
from agora.core.chat.views import message_view
from agora.core.clock import now_ms
from agora.core.errors import Forbidden, InvalidInput, NotFound
from agora.core.message_kinds import ChatKinds
from agora.core.money import Posting, to_cents, wallet_id
from agora.core.whatsapp.constants import LEDGER_REF_WHATSAPP_TEMPLATE, MESSAGE_TYPE_WA_TEMPLATE
from agora.core.whatsapp.kinds import agent_refusal
from agora.core.whatsapp.outbound import (
    MEDIA_TYPES,
    WA_MESSAGE_TYPES,
    check_media_type,
    window_refusal,
)
from agora.integrations.whatsapp.client import GraphApi, GraphError
from agora.integrations.whatsapp.graph import graph_payload
from agora.integrations.whatsapp.templates import render_template
from agora.services.accounts import Caller
from agora.services.events import MessageStored
from agora.services.wallet import REFUSED, WalletService
from agora.services.whatsapp.channels import WhatsAppChannels
from agora.services.whatsapp.statuses import WhatsAppStatuses
from agora.store.groups import GroupStore
from agora.store.messages import MessageStore
from agora.store.sessions import SessionStore
from agora.store.whatsapp_statuses import WhatsAppFlags
from agora.store.whatsapp_templates import WhatsAppTemplateStore
from agora.tools.background import BackgroundTasks

log = logging.getLogger("agora.whatsapp.outbound")

CLICK_PATH = "/wa/c/"
SWEEP_SECONDS = 30
SWEEP_BATCH = 100
# A reply still unsent this long after it was stored was left by an edge that stopped; one
# whose send started this long ago (past the Graph API's timeout) was cut off.
UNSENT_AFTER_MS = 60_000
INTERRUPTED_AFTER_MS = 5 * 60_000
INTERRUPTED = {
    "code": 0,
    "title": "Interrupted",
    "message": "Sending was cut off; it may not have reached WhatsApp",
}
NO_TEMPLATE = "No approved template of this name and language: sync the templates"


def business_of(session: dict[str, Any]) -> dict[str, Any]:
    """A business chat's WhatsApp side: channel_id, group_id, wa_id, the window."""
    return (session.get("data") or {}).get("whatsapp") or {}


class BusinessSends:
    """What a WhatsApp reply needs before its chat's shard stores it."""

    def __init__(
        self,
        *,
        public_base_url: str,
        sessions: SessionStore,
        messages: MessageStore,
        templates: WhatsAppTemplateStore,
    ) -> None:
        self.public_base_url = public_base_url.rstrip("/")
        self.sessions = sessions
        self.messages = messages
        self.templates = templates

    async def prepare(
        self, caller: Caller, outgoing: Outgoing, files: list[dict[str, Any]]
    ) -> tuple[Outgoing, dict[str, Any]]:
        """The message to store and its first flags (`s0` for a template); a refusal
        (InvalidInput, Forbidden) when it may not go out."""
        session = await self.sessions.get(outgoing.session_id)
        membership = await self.sessions.membership(outgoing.session_id, caller.user["_id"])
        kind = membership["session_user_type"] if membership else None
        if session is None or hidden_from(session, kind):
            raise NotFound({"dest_session_id": NO_SUCH_CHAT})
        if refusal := agent_refusal(session, kind):
            raise Forbidden(refusal)
        if refusal := window_refusal(session, outgoing.type, now_ms()):
            raise InvalidInput({"_type": refusal})
        data = dict(outgoing.data or {})
        wa_kind = data["wa"]["kind"]
        if wa_kind in MEDIA_TYPES:
            check_media_type(wa_kind, files[0]["mime_type"])
        if "context" in data:
            data["context"] = await self._context(outgoing.session_id, data["context"])
        # Queued until it has an outcome (s1, wa_f, wa_ns): a reply whose edge died before
        # sending it is sent by the sweep.
        info: dict[str, Any] = {"wa_q": now_ms()}
        if outgoing.type != MESSAGE_TYPE_WA_TEMPLATE:
            return replace(outgoing, data=data), info
        rendered = await self._template(session, outgoing, data["template"])
        data["template"] = rendered
        return replace(outgoing, payload=rendered["body"], data=data), {**info, "s0": True}

    async def _context(self, session_id: str, context: dict[str, Any]) -> dict[str, Any]:
        """The message answered, by its wamid when it has one (Meta quotes it)."""
        answered = await self.messages.get(session_id, context["reply_to"])
        if answered is None:
            raise InvalidInput({"context": NOT_IN_THIS_CHAT})
        wamid = ((answered.get("data") or {}).get("wa") or {}).get("wamid")
        return {**context, **({"reply_to_wamid": wamid} if wamid else {})}

    async def _template(
        self, session: dict[str, Any], outgoing: Outgoing, sent: dict[str, Any]
    ) -> dict[str, Any]:
        channel_id = business_of(session).get("channel_id", "")
        template = await self.templates.get(channel_id, sent["name"], sent["language"])
        if template is None:
            raise InvalidInput({"template": NO_TEMPLATE})
        rendered = render_template(template, sent)
        links = []
        for index, button in enumerate(rendered["buttons"]):
            if button["type"] == "URL":
                token = secrets.token_urlsafe(18)
                links.append(
                    {
                        "_id": token,
                        # The message by its resend key: the shard gives it its id.
                        "session_id": outgoing.session_id,
                        "src_id": outgoing.src_id,
                        "local_id": outgoing.local_id,
                        "button": index,
                        "url": button["url"],
                        "created_at": now_ms(),
                    }
                )
                button["url"] = f"{self.public_base_url}{CLICK_PATH}{token}"
        await self.templates.add_links(links)
        return rendered


class WhatsAppOutbound:
    """Sends stored replies through the Graph API and records how that went."""

    def __init__(
        self,
        *,
        public_base_url: str,
        template_price: Decimal,
        template_currency: str,
        graph: GraphApi,
        channels: WhatsAppChannels,
        sessions: SessionStore,
        groups: GroupStore,
        flags: WhatsAppFlags,
        wallets: WalletService,
        statuses: WhatsAppStatuses,
        kinds: ChatKinds,
    ) -> None:
        self.public_base_url = public_base_url
        self.price_cents = to_cents(template_price)
        self.currency = template_currency
        self.graph = graph
        self.channels = channels
        self.sessions = sessions
        self.groups = groups
        self.flags = flags
        self.wallets = wallets
        self.statuses = statuses
        self.kinds = kinds
        self._sending = BackgroundTasks()

    def message_stored(self, event: MessageStored) -> None:
        """A `MessageStored` subscriber: an agent's WhatsApp reply goes out in a task, so
        neither the sender's acknowledgement nor the other subscribers wait for Meta."""
        if event.message["type"] not in WA_MESSAGE_TYPES:
            return
        self._sending.start(self._deliver(event.session_id, event.message))

    async def close(self) -> None:
        """Lets the sends under way finish (each ends within the Graph API's timeout)."""
        await self._sending.settled()

    async def _deliver(self, session_id: str, message: dict[str, Any]) -> None:
        try:
            if await self.flags.claim(message["id"], now_ms()):
                await self._send(session_id, message)
        except Exception:
            log.exception("sending message %s to WhatsApp failed", message["id"])

    async def sweep_forever(self) -> None:
        """Every edge sweeps: replies an edge stored but did not send (it died) go out, and
        those whose send was cut off are marked failed (it may or may not have reached
        WhatsApp: sending again could reach the customer twice)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.warning("the sweep of unsent WhatsApp replies failed", exc_info=True)

    async def sweep(self) -> None:
        now = now_ms()
        for stored in await self.flags.queued_before(now - UNSENT_AFTER_MS, SWEEP_BATCH):
            message = message_view(stored, self.kinds)
            claimed_at = stored["info"].get("wa_claim")
            if claimed_at is None:
                await self._deliver(stored["dest_session_id"], message)
            elif claimed_at < now - INTERRUPTED_AFTER_MS:
                await self._flag(message, {"wa_f": now, "wa_errors": [INTERRUPTED]})

    async def _send(self, session_id: str, message: dict[str, Any]) -> None:
        session = await self.sessions.get(session_id) or {}
        business = business_of(session)
        opened = await self.channels.get(business.get("channel_id", ""))
        if opened is None or not opened.channel.get("enabled") or not opened.keys.access_token:
            await self._flag(message, {"wa_ns": now_ms()})
            return
        charged = await self._charge(business, message)
        if charged is False:
            await self._flag(message, {"wa_ns": now_ms()})
            return
        context = (message.get("data") or {}).get("context") or {}
        payload = graph_payload(
            business["wa_id"],
            message,
            base_url=self.public_base_url,
            reply_to_wamid=context.get("reply_to_wamid"),
        )
        try:
            wamid = await self.graph.send_message(
                opened.channel["phone_number_id"], opened.keys.access_token, payload
            )
        except GraphError as error:
            log.info("WhatsApp refused message %s: %s", message["id"], error)
            if charged:
                await self._refund(business, message)
            await self._flag(message, {"wa_f": now_ms(), "wa_errors": [error.view()]})
            return
        recorded = {"data.wa.wamid": wamid, "data.wa.channel_id": opened.id}
        await self._flag(message, {"s1": now_ms()}, also=recorded)
        await self.statuses.wamid_recorded(opened.id, wamid)

    async def _flag(
        self, message: dict[str, Any], fields: dict[str, Any], also: dict | None = None
    ) -> None:
        changed = await self.flags.set_once(message["id"], fields, also=also)
        if changed is not None:
            await self.statuses.announce(changed)

    # The template price -------------------------------------------------------------

    async def _charge(self, business: dict[str, Any], message: dict[str, Any]) -> bool | None:
        """Charges a template to the group's owner once per message (the move's key): True
        when paid, False when their wallet cannot pay, None when nothing is charged."""
        if message["type"] != MESSAGE_TYPE_WA_TEMPLATE or self.price_cents <= 0:
            return None
        payer = await self._payer(business)
        if payer is None:
            return False
        name = message["data"]["template"]["name"]
        move = await self.wallets.transfer(
            key=f"whatsapp_template:{message['id']}",
            ref_type=LEDGER_REF_WHATSAPP_TEMPLATE,
            postings=[self._posting(payer, -self.price_cents, f"WhatsApp template '{name}'")],
            details={"session_id": message["dest_session_id"], "message_id": message["id"]},
        )
        return move["state"] != REFUSED

    async def _refund(self, business: dict[str, Any], message: dict[str, Any]) -> None:
        """WhatsApp refused the template: its price comes back, once."""
        payer = await self._payer(business)
        if payer is None:
            return
        name = message["data"]["template"]["name"]
        await self.wallets.transfer(
            key=f"whatsapp_template_refund:{message['id']}",
            ref_type=LEDGER_REF_WHATSAPP_TEMPLATE,
            postings=[
                self._posting(payer, self.price_cents, f"WhatsApp template '{name}' refunded")
            ],
            details={"session_id": message["dest_session_id"], "message_id": message["id"]},
        )

    async def _payer(self, business: dict[str, Any]) -> str | None:
        """The group's owner (its creator, an admin) pays its templates."""
        group = await self.groups.get(business.get("group_id", ""))
        return group.get("created_by") if group else None

    def _posting(self, user_id: str, cents: int, title: str) -> Posting:
        return Posting(wallet_id(user_id, self.currency), user_id, self.currency, cents, title)
