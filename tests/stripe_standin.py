"""A local stand-in for the parts of Stripe's API that Agora uses, for tests and the e2e suite.

It answers the real `stripe` library (form-encoded requests, bearer secret key,
`Idempotency-Key` replays, Stripe's error shape) for checkout sessions (payment and
subscription mode), connected accounts, account links, transfers, subscriptions, billing
portal sessions and events. It signs webhooks exactly as Stripe does
(`Stripe-Signature: t=<unix time>,v1=<HMAC-SHA256(secret, "<t>.<body>")>`) and POSTs them
where it is told.

For browsers it serves the pages Stripe hosts: a checkout page with a card form and a Pay
button (card 4000 0000 0000 0002 is declined, as in Stripe's test mode), Connect onboarding
and the billing portal. Finishing one of them delivers its events to `webhook_url` and then
redirects back, like Stripe.

Run alone: `python -m tests.stripe_standin --port 12111 --webhook-url URL`.
"""

import argparse
import asyncio
import contextlib
import copy
import hashlib
import hmac
import html
import json
import logging
import re
import secrets
import time
from collections.abc import Iterable
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web

log = logging.getLogger("stripe-standin")

SECRET_KEY = "sk_test_agora_standin"
WEBHOOK_SECRET = "whsec_agora_standin"
API_VERSION = "2026-10-28.endive"
DECLINED_CARD = "4000000000000002"
DECLINE_MESSAGE = "Your card was declined."
INSUFFICIENT_FUNDS = (
    "You have insufficient available funds in your Stripe account. Try adding funds directly "
    "to your available balance by creating Charges using the 4000000000000077 test card."
)
NO_TRANSFER_CAPABILITY = (
    "Your destination account needs to have at least one of the following capabilities "
    "enabled: transfers, crypto_transfers, legacy_payments"
)
IDEMPOTENCY_MISMATCH = (
    "Keys for idempotent requests can only be used with the same parameters they were first "
    "used with. Try using a key other than '{key}' if you meant to execute a different request."
)
IDEMPOTENCY_IN_FLIGHT = (
    "There is currently another in-progress request using this Stripe API Idempotency Key "
    "(that probably means you submitted twice, and the other request is still going through): "
    "{key}. Please try again later."
)


class StripeFailure(Exception):
    """An API failure in Stripe's shape: {"error": {type, message, code, param}}."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": {"type": kind, "message": message, "code": code, "param": param}}


def new_id(prefix: str) -> str:
    return f"{prefix}_test_{secrets.token_hex(12)}"


def decode_form(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's form encoding (`a[b][0][c]=v`) back into nested dicts and lists."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = re.findall(r"[^\[\]]+", key)
        if not parts:
            continue
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return _listify(root)


def _listify(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    items = {key: _listify(value) for key, value in node.items()}
    if items and all(key.isdigit() for key in items):
        return [items[key] for key in sorted(items, key=int)]
    return items


def sign(payload: str, secret: str, timestamp: int | None = None) -> str:
    """The `Stripe-Signature` header Stripe sends with `payload`."""
    stamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{stamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={stamp},v1={digest}"


def _integer(params: dict[str, Any], name: str) -> int:
    try:
        value = int(params[name])
    except (KeyError, TypeError, ValueError) as exc:
        raise StripeFailure(400, f"Invalid integer: {params.get(name)}", param=name) from exc
    if value <= 0:
        raise StripeFailure(400, "This value must be greater than 0", param=name)
    return value


def _required(params: dict[str, Any], name: str) -> Any:
    if not params.get(name):
        raise StripeFailure(400, f"Missing required param: {name}.", param=name)
    return params[name]


class StripeStandin:
    def __init__(
        self,
        *,
        secret_key: str = SECRET_KEY,
        webhook_secret: str = WEBHOOK_SECRET,
        webhook_url: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.secret_key = secret_key
        self.webhook_secret = webhook_secret
        self.webhook_url = webhook_url
        self.host = host
        self.port = port
        self.objects: dict[str, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.account_links: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str]] = []
        # The platform's available balance per currency (lowercase); missing means plenty.
        self.available: dict[str, int] = {}
        self._private: dict[str, dict[str, Any]] = {}
        self._replies: dict[str, tuple[str, int, dict[str, Any]]] = {}
        self._in_flight: set[str] = set()
        self._runner: web.AppRunner | None = None
        self._http: ClientSession | None = None

    # Lifecycle ------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> "StripeStandin":
        self._runner = web.AppRunner(self.app())
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._http = ClientSession(timeout=ClientTimeout(total=30))
        return self

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._api_middleware])
        api = [
            web.post("/v1/checkout/sessions", self._create_checkout),
            web.get("/v1/checkout/sessions/{id}", self._get_checkout),
            web.post("/v1/accounts", self._create_account),
            web.get("/v1/accounts/{id}", self._get_object),
            web.post("/v1/account_links", self._create_account_link),
            web.post("/v1/transfers", self._create_transfer),
            web.get("/v1/transfers", self._list_transfers),
            web.get("/v1/transfers/{id}", self._get_object),
            web.get("/v1/subscriptions/{id}", self._get_object),
            web.delete("/v1/subscriptions/{id}", self._cancel_subscription_call),
            web.post("/v1/billing_portal/sessions", self._create_portal),
            web.get("/v1/events", self._list_events),
            web.get("/v1/events/{id}", self._get_object),
        ]
        pages = [
            web.get("/pay/{id}", self._checkout_page),
            web.post("/pay/{id}", self._checkout_submit),
            web.get("/connect/onboarding/{id}", self._onboarding_page),
            web.post("/connect/onboarding/{id}", self._onboarding_submit),
            web.get("/portal/{id}", self._portal_page),
            web.post("/portal/{id}", self._portal_submit),
        ]
        app.add_routes(api + pages)
        return app

    # API plumbing -----------------------------------------------------------------

    @web.middleware
    async def _api_middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if not request.path.startswith("/v1/"):
            return await handler(request)
        self.requests.append((request.method, request.path))
        try:
            self._authenticate(request)
            key = request.headers.get("Idempotency-Key")
            if request.method == "POST" and key:
                return await self._idempotent(request, handler, key)
            return await handler(request)
        except StripeFailure as failure:
            return self._reply(failure.status, failure.body)

    def _authenticate(self, request: web.Request) -> None:
        scheme, _, key = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or key != self.secret_key:
            raise StripeFailure(401, f"Invalid API Key provided: {key[:8]}***")

    async def _idempotent(self, request: web.Request, handler, key: str) -> web.StreamResponse:
        """Stripe's rule: the first result for a key is replayed for every later request."""
        form = sorted((await request.post()).items())
        fingerprint = json.dumps([request.method, request.path, form], default=str)
        if key in self._in_flight:
            raise StripeFailure(
                409, IDEMPOTENCY_IN_FLIGHT.format(key=key), kind="idempotency_error"
            )
        saved = self._replies.get(key)
        if saved is not None:
            if saved[0] != fingerprint:
                raise StripeFailure(
                    400, IDEMPOTENCY_MISMATCH.format(key=key), kind="idempotency_error"
                )
            response = self._reply(saved[1], saved[2])
            response.headers["Idempotent-Replayed"] = "true"
            return response
        self._in_flight.add(key)
        try:
            try:
                response = await handler(request)
            except StripeFailure as failure:
                response = self._reply(failure.status, failure.body)
            self._replies[key] = (fingerprint, response.status, json.loads(response.text))
            return response
        finally:
            self._in_flight.discard(key)

    @staticmethod
    def _reply(status: int, body: dict[str, Any]) -> web.Response:
        response = web.json_response(body, status=status)
        response.headers["Request-Id"] = f"req_{secrets.token_hex(7)}"
        return response

    @staticmethod
    async def _params(request: web.Request) -> dict[str, Any]:
        if request.method == "GET":
            return decode_form(request.query.items())
        return decode_form((await request.post()).items())

    def _object(self, object_id: str, kind: str | None = None) -> dict[str, Any]:
        found = self.objects.get(object_id)
        if found is None or (kind is not None and found["object"] != kind):
            label = kind or "object"
            raise StripeFailure(404, f"No such {label}: '{object_id}'", code="resource_missing")
        return found

    def _store(self, obj: dict[str, Any]) -> dict[str, Any]:
        self.objects[obj["id"]] = obj
        return obj

    async def _get_object(self, request: web.Request) -> web.Response:
        return self._reply(200, self._object(request.match_info["id"]))

    # Checkout -----------------------------------------------------------------------

    async def _create_checkout(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        mode = _required(params, "mode")
        if mode not in ("payment", "subscription"):
            raise StripeFailure(400, f"Invalid mode: {mode}", param="mode")
        items = _required(params, "line_items")
        prices = [item.get("price_data") or {} for item in items]
        currencies = {str(_required(price, "currency")).lower() for price in prices}
        if len(currencies) != 1:
            raise StripeFailure(400, "All line items must use the same currency")
        if mode == "subscription" and not all(p.get("recurring") for p in prices):
            raise StripeFailure(400, "Subscription mode needs a recurring price", param="mode")
        total = sum(
            _integer(price, "unit_amount") * int(item.get("quantity") or 1)
            for item, price in zip(items, prices, strict=True)
        )
        checkout_id = new_id("cs")
        customer = params.get("customer")
        if customer:
            self._object(customer, "customer")
        checkout = self._store(
            {
                "id": checkout_id,
                "object": "checkout.session",
                "mode": mode,
                "status": "open",
                "payment_status": "unpaid",
                "amount_total": total,
                "currency": currencies.pop(),
                "metadata": params.get("metadata") or {},
                "success_url": _required(params, "success_url"),
                "cancel_url": params.get("cancel_url"),
                "url": f"{self.base_url}/pay/{checkout_id}",
                "customer": customer,
                "customer_email": params.get("customer_email"),
                "payment_intent": None,
                "subscription": None,
                "created": int(time.time()),
                "expires_at": int(time.time()) + 24 * 3600,
                "livemode": False,
            }
        )
        self._private[checkout_id] = {
            "line_items": items,
            "subscription_metadata": (params.get("subscription_data") or {}).get("metadata") or {},
        }
        return self._reply(200, checkout)

    async def _get_checkout(self, request: web.Request) -> web.Response:
        checkout = copy.deepcopy(self._object(request.match_info["id"], "checkout.session"))
        expand = (await self._params(request)).get("expand") or []
        if "payment_intent" in expand and checkout["payment_intent"]:
            checkout["payment_intent"] = self._object(checkout["payment_intent"])
        return self._reply(200, checkout)

    def complete_checkout(self, checkout_id: str, *, paid: bool = True) -> list[dict[str, Any]]:
        """The customer paid: the events Stripe then sends, in the order it creates them.

        `paid=False` is a delayed payment method (a bank debit): the checkout completes unpaid
        and `succeed_async_payment` later settles it.
        """
        checkout = self._object(checkout_id, "checkout.session")
        if checkout["status"] != "open":
            raise ValueError(f"checkout {checkout_id} is {checkout['status']}")
        checkout["status"] = "complete"
        events: list[dict[str, Any]] = []
        if checkout["mode"] == "subscription":
            events += self._start_subscription(checkout)
            checkout["payment_status"] = "paid"
        else:
            intent = self._payment_intent(checkout, "succeeded" if paid else "processing")
            checkout["payment_intent"] = intent["id"]
            checkout["payment_status"] = "paid" if paid else "unpaid"
        events.append(self.emit("checkout.session.completed", checkout))
        return events

    def succeed_async_payment(self, checkout_id: str) -> dict[str, Any]:
        checkout = self._object(checkout_id, "checkout.session")
        checkout["payment_status"] = "paid"
        self._object(checkout["payment_intent"])["status"] = "succeeded"
        return self.emit("checkout.session.async_payment_succeeded", checkout)

    def decline_checkout(self, checkout_id: str, message: str = DECLINE_MESSAGE) -> None:
        """A declined card: the checkout stays open and its payment intent holds the reason."""
        checkout = self._object(checkout_id, "checkout.session")
        intent = self._payment_intent(checkout, "requires_payment_method")
        intent["last_payment_error"] = {
            "type": "card_error",
            "code": "card_declined",
            "message": message,
        }
        checkout["payment_intent"] = intent["id"]

    def expire_checkout(self, checkout_id: str) -> dict[str, Any]:
        checkout = self._object(checkout_id, "checkout.session")
        checkout["status"] = "expired"
        return self.emit("checkout.session.expired", checkout)

    def _payment_intent(self, checkout: dict[str, Any], status: str) -> dict[str, Any]:
        existing = checkout.get("payment_intent")
        if existing:
            intent = self._object(existing)
            intent["status"] = status
            return intent
        return self._store(
            {
                "id": new_id("pi"),
                "object": "payment_intent",
                "amount": checkout["amount_total"],
                "currency": checkout["currency"],
                "status": status,
                "metadata": checkout["metadata"],
                "last_payment_error": None,
            }
        )

    # Subscriptions and the billing portal ------------------------------------------------

    def _start_subscription(self, checkout: dict[str, Any]) -> list[dict[str, Any]]:
        events = []
        if not checkout["customer"]:
            customer = self._store(
                {"id": new_id("cus"), "object": "customer", "email": checkout["customer_email"]}
            )
            checkout["customer"] = customer["id"]
            events.append(self.emit("customer.created", customer))
        now = int(time.time())
        subscription = self._store(
            {
                "id": new_id("sub"),
                "object": "subscription",
                "status": "active",
                "customer": checkout["customer"],
                "metadata": self._private[checkout["id"]]["subscription_metadata"],
                "created": now,
                "current_period_start": now,
                "current_period_end": now + 30 * 24 * 3600,
                "cancel_at_period_end": False,
            }
        )
        checkout["subscription"] = subscription["id"]
        events.append(self.emit("customer.subscription.created", subscription))
        return events

    def update_subscription(
        self, subscription_id: str, status: str, created: int | None = None
    ) -> dict[str, Any]:
        subscription = self._object(subscription_id, "subscription")
        subscription["status"] = status
        return self.emit("customer.subscription.updated", subscription, created)

    def cancel_subscription(self, subscription_id: str, created: int | None = None) -> dict:
        subscription = self._object(subscription_id, "subscription")
        subscription["status"] = "canceled"
        return self.emit("customer.subscription.deleted", subscription, created)

    async def _cancel_subscription_call(self, request: web.Request) -> web.Response:
        self.cancel_subscription(request.match_info["id"])
        return self._reply(200, self._object(request.match_info["id"]))

    async def _create_portal(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        customer = self._object(_required(params, "customer"), "customer")
        portal_id = new_id("bps")
        portal = self._store(
            {
                "id": portal_id,
                "object": "billing_portal.session",
                "customer": customer["id"],
                "return_url": params.get("return_url"),
                "url": f"{self.base_url}/portal/{portal_id}",
                "created": int(time.time()),
            }
        )
        return self._reply(200, portal)

    # Connect ---------------------------------------------------------------------

    async def _create_account(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        account = self._store(
            {
                "id": new_id("acct"),
                "object": "account",
                "type": params.get("type", "express"),
                "email": params.get("email"),
                "metadata": params.get("metadata") or {},
                "charges_enabled": False,
                "payouts_enabled": False,
                "details_submitted": False,
                "capabilities": {
                    name: "inactive" for name in (params.get("capabilities") or {"transfers": 1})
                },
                "created": int(time.time()),
            }
        )
        return self._reply(200, account)

    async def _create_account_link(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        account = self._object(_required(params, "account"), "account")
        if params.get("type") not in ("account_onboarding", "account_update"):
            raise StripeFailure(400, "Invalid type", param="type")
        link = {
            "object": "account_link",
            "created": int(time.time()),
            "expires_at": int(time.time()) + 300,
            "url": f"{self.base_url}/connect/onboarding/{account['id']}",
        }
        self.account_links.append({**params, **link})
        return self._reply(200, link)

    def complete_onboarding(self, account_id: str, created: int | None = None) -> dict:
        """The user finished onboarding: payouts are enabled and `account.updated` is sent."""
        account = self._object(account_id, "account")
        account.update(charges_enabled=True, payouts_enabled=True, details_submitted=True)
        account["capabilities"] = {name: "active" for name in account["capabilities"]}
        return self.emit("account.updated", account, created)

    async def _create_transfer(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        amount = _integer(params, "amount")
        currency = str(_required(params, "currency")).lower()
        destination = self._object(_required(params, "destination"), "account")
        if destination["capabilities"].get("transfers") != "active":
            raise StripeFailure(
                400, NO_TRANSFER_CAPABILITY, code="insufficient_capabilities_for_transfer"
            )
        if self.available.get(currency, 10**12) < amount:
            raise StripeFailure(400, INSUFFICIENT_FUNDS, code="balance_insufficient")
        self.available[currency] = self.available.get(currency, 10**12) - amount
        transfer = self._store(
            {
                "id": new_id("tr"),
                "object": "transfer",
                "amount": amount,
                "currency": currency,
                "destination": destination["id"],
                "transfer_group": params.get("transfer_group"),
                "metadata": params.get("metadata") or {},
                "reversed": False,
                "created": int(time.time()),
            }
        )
        return self._reply(200, transfer)

    def transfers(self) -> list[dict[str, Any]]:
        return [o for o in self.objects.values() if o["object"] == "transfer"]

    async def _list_transfers(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        group = params.get("transfer_group")
        found = [t for t in self.transfers() if group is None or t["transfer_group"] == group]
        return self._list(found, "/v1/transfers", params)

    async def _list_events(self, request: web.Request) -> web.Response:
        params = await self._params(request)
        return self._list(list(reversed(self.events)), "/v1/events", params)

    def _list(self, found: list[dict[str, Any]], url: str, params: dict) -> web.Response:
        limit = int(params.get("limit") or 10)
        body = {"object": "list", "url": url, "data": found[:limit], "has_more": len(found) > limit}
        return self._reply(200, body)

    # Events and webhooks ------------------------------------------------------------

    def emit(self, kind: str, obj: dict[str, Any], created: int | None = None) -> dict:
        """Records an event about `obj` as it is now; `created` may be set to test ordering."""
        event = {
            "id": new_id("evt"),
            "object": "event",
            "api_version": API_VERSION,
            "created": int(time.time()) if created is None else created,
            "data": {"object": copy.deepcopy(obj)},
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "type": kind,
        }
        self.objects[event["id"]] = event
        self.events.append(event)
        return event

    def payload(self, event: dict[str, Any]) -> str:
        # Stripe sends events pretty-printed; the signature covers these exact characters.
        return json.dumps(event, indent=2)

    async def deliver(
        self,
        event: dict[str, Any],
        url: str | None = None,
        *,
        secret: str | None = None,
        timestamp: int | None = None,
        payload: str | None = None,
    ) -> tuple[int, Any]:
        """POSTs the event signed as Stripe signs it; returns the status and the reply.

        `secret`, `timestamp` and `payload` let a test send what Stripe never would: the
        wrong secret, a stale signature, a body changed after signing.
        """
        body = self.payload(event)
        header = sign(body, secret or self.webhook_secret, timestamp)
        target = url or self.webhook_url
        if target is None or self._http is None:
            raise RuntimeError("no webhook URL, or the stand-in is not started")
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "Stripe-Signature": header,
            "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        }
        sent = body if payload is None else payload
        async with self._http.post(target, data=sent.encode(), headers=headers) as reply:
            text = await reply.text()
            try:
                return reply.status, json.loads(text)
            except ValueError:
                return reply.status, text

    async def _deliver_all(self, events: list[dict[str, Any]]) -> None:
        """What the hosted pages do after a step: tell the platform, as Stripe would."""
        for event in events:
            try:
                status, reply = await self.deliver(event)
            except Exception as error:  # a real Stripe would retry later; this one logs
                log.warning("webhook %s not delivered: %r", event["type"], error)
                continue
            if status >= 300:
                log.warning("webhook %s answered %s: %s", event["type"], status, reply)

    # Hosted pages (what the browser sees) ---------------------------------------------

    async def _checkout_page(self, request: web.Request) -> web.Response:
        checkout = self._object(request.match_info["id"], "checkout.session")
        return _page(_checkout_html(checkout, self._private[checkout["id"]], error=None))

    async def _checkout_submit(self, request: web.Request) -> web.StreamResponse:
        checkout = self._object(request.match_info["id"], "checkout.session")
        if checkout["status"] != "open":
            raise web.HTTPSeeOther(_success_url(checkout))
        form = await request.post()
        card = re.sub(r"\D", "", str(form.get("cardnumber", "")))
        private = self._private[checkout["id"]]
        if len(card) < 12:
            return _page(_checkout_html(checkout, private, "Your card number is incomplete."))
        if card == DECLINED_CARD:
            self.decline_checkout(checkout["id"])
            return _page(_checkout_html(checkout, private, DECLINE_MESSAGE), status=402)
        await self._deliver_all(self.complete_checkout(checkout["id"]))
        raise web.HTTPSeeOther(_success_url(checkout))

    async def _onboarding_page(self, request: web.Request) -> web.Response:
        account = self._object(request.match_info["id"], "account")
        body = (
            "<h1>Set up payouts</h1>"
            f"<p>Account {html.escape(account['id'])} ({html.escape(account['email'] or '')})"
            "</p><form method=post><button type=submit>Agree and submit</button></form>"
        )
        return _page(body)

    async def _onboarding_submit(self, request: web.Request) -> web.StreamResponse:
        account_id = request.match_info["id"]
        await self._deliver_all([self.complete_onboarding(account_id)])
        links = [link for link in self.account_links if link["account"] == account_id]
        raise web.HTTPSeeOther(links[-1]["return_url"])

    async def _portal_page(self, request: web.Request) -> web.Response:
        portal = self._object(request.match_info["id"], "billing_portal.session")
        active = self._active_subscriptions(portal["customer"])
        rows = "".join(
            f"<li>{html.escape(s['id'])}: {html.escape(s['status'])}</li>" for s in active
        )
        body = (
            f"<h1>Billing</h1><ul>{rows or '<li>No active subscription</li>'}</ul>"
            "<form method=post><button type=submit name=action value=cancel>"
            "Cancel subscription</button></form>"
            f"<p><a href='{html.escape(portal['return_url'] or '/')}'>Return to the site</a></p>"
        )
        return _page(body)

    async def _portal_submit(self, request: web.Request) -> web.StreamResponse:
        portal = self._object(request.match_info["id"], "billing_portal.session")
        events = [
            self.cancel_subscription(s["id"])
            for s in self._active_subscriptions(portal["customer"])
        ]
        await self._deliver_all(events)
        raise web.HTTPSeeOther(portal["return_url"] or "/")

    def _active_subscriptions(self, customer: str) -> list[dict[str, Any]]:
        return [
            o
            for o in self.objects.values()
            if o["object"] == "subscription"
            and o["customer"] == customer
            and o["status"] in ("active", "trialing", "past_due")
        ]


def _success_url(checkout: dict[str, Any]) -> str:
    return checkout["success_url"].replace("{CHECKOUT_SESSION_ID}", checkout["id"])


_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;"
    "color:#1a1f36}label{display:block;margin:.8rem 0 .3rem;font-size:.9rem}"
    "input{width:100%;padding:.6rem;border:1px solid #c9ced8;border-radius:6px;"
    "box-sizing:border-box}button{margin-top:1.2rem;width:100%;padding:.8rem;border:0;"
    "border-radius:6px;background:#635bff;color:#fff;font-size:1rem}"
    ".error{color:#df1b41;margin-top:.8rem}.row{display:flex;gap:.6rem}"
)


def _page(body: str, status: int = 200) -> web.Response:
    document = (
        "<!doctype html><html><head><meta charset=utf-8><title>Stripe stand-in</title>"
        f"<meta name=viewport content='width=device-width'><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )
    return web.Response(text=document, status=status, content_type="text/html")


def _checkout_html(checkout: dict[str, Any], private: dict[str, Any], error: str | None) -> str:
    name = (private["line_items"][0].get("price_data") or {}).get("product_data", {}).get("name")
    amount = f"{checkout['amount_total'] / 100:.2f} {checkout['currency'].upper()}"
    every = " per month" if checkout["mode"] == "subscription" else ""
    button = "Subscribe" if checkout["mode"] == "subscription" else "Pay"
    problem = f"<p class=error role=alert>{html.escape(error)}</p>" if error else ""
    cancel = checkout.get("cancel_url")
    back = f"<p><a href='{html.escape(cancel)}'>Back</a></p>" if cancel else ""
    return (
        f"<h1>{html.escape(name or 'Payment')}</h1><p class=amount>{amount}{every}</p>"
        "<form method=post>"
        f"<label for=email>Email</label><input id=email name=email type=email "
        f"value='{html.escape(checkout.get('customer_email') or '')}'>"
        "<label for=cardnumber>Card number</label>"
        "<input id=cardnumber name=cardnumber inputmode=numeric "
        "placeholder='1234 1234 1234 1234' autocomplete=cc-number>"
        "<div class=row><div><label for=expiry>Expiry</label>"
        "<input id=expiry name=expiry placeholder='MM / YY'></div>"
        "<div><label for=cvc>CVC</label><input id=cvc name=cvc placeholder=CVC></div></div>"
        "<label for=cardname>Name on card</label><input id=cardname name=cardname>"
        f"{problem}<button type=submit>{button}</button></form>{back}"
    )


async def _serve(port: int, webhook_url: str | None) -> None:
    standin = await StripeStandin(port=port, webhook_url=webhook_url).start()
    print(f"Stripe stand-in on {standin.base_url} (key {SECRET_KEY}, secret {WEBHOOK_SECRET})")
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.Event().wait()
    await standin.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=12111)
    parser.add_argument("--webhook-url")
    arguments = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(arguments.port, arguments.webhook_url))
