"""Card payments through Stripe: recharge, withdrawal to a connected account, group
subscriptions, and the webhook that reports what happened.

Money enters a wallet only from a verified webhook, through the wallet service's idempotent
`credit_external` keyed by the checkout session, so a payment is credited once however often
and in whatever order Stripe delivers its events. A withdrawal debits the amount asked (the
whole balance when none is) first (a wallet move), then asks Stripe for a transfer keyed by
that move, so a retried request or a retried call never pays twice; a refused transfer gives
the money back as a new ledger entry.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from agora.core.clock import now_ms
from agora.core.documents import User
from agora.core.errors import (
    AgoraError,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    Unavailable,
)
from agora.core.groups import is_admin
from agora.core.money import LEDGER_REF_RECHARGE, MOVE_RECOVERY_AFTER_MS, format_amount, request_key
from agora.core.payments import (
    AFTER_PAYMENT_PATH,
    CARD_PAYMENTS_UNAVAILABLE,
    PROFILE_CAN_WITHDRAW_PATH,
    PROFILE_RETRY_WITHDRAW_PATH,
    RECHARGE_CREDITED,
    RECHARGE_EXPIRED,
    RECHARGE_FAILED,
    RECHARGE_KIND,
    RECHARGE_OPEN,
    RECHARGE_PATH,
    RECHARGE_REFUSED,
    STATUS_FAILED,
    STATUS_PAID,
    STATUS_PENDING,
    SUBSCRIPTION_ACTIVE,
    SUBSCRIPTION_KIND,
    PaymentFailed,
    card_currency,
    checkout_mismatch,
    event_marker,
    fetched_marker,
    payouts_ready,
    recharge_cents,
    recharge_query,
    recharge_view,
    subscription_status,
    withdrawal_cents,
    withdrawal_currency,
    withdrawal_query,
)
from agora.integrations.stripe_gateway import GatewayError, InvalidSignature, StripeGateway
from agora.services.accounts import Caller
from agora.services.groups import GroupService
from agora.services.wallet import PAYING, REVERSED, WalletService
from agora.settings import Settings
from agora.store.payments import PaymentStore, Recharges

log = logging.getLogger("agora.payments")

T = TypeVar("T")
Event = dict[str, Any]

# A retried withdrawal waits this long for the first attempt to debit the wallet.
MOVE_WAIT_STEPS = 50
MOVE_WAIT_SECONDS = 0.1
PROVIDER_SILENT = "The card payment provider did not answer, please try again"
RECHARGE_MESSAGES = {
    RECHARGE_OPEN: "Waiting for the payment to be confirmed",
    RECHARGE_EXPIRED: "The payment page expired; nothing was charged",
    RECHARGE_REFUSED: "This payment does not match the recharge; nothing was credited",
}


class PayoutsStatus:
    """Whether a user can be paid out: wallets show it as
    `data.stripe_connected_account_charge_enabled`. A reader of its own, so that wallets
    (which payments move money through) need not know the payments service."""

    def __init__(self, store: PaymentStore) -> None:
        self.store = store

    async def charge_enabled(self, user_id: str) -> bool:
        return payouts_ready(await self.store.connect_account(user_id))


class PaymentService:
    def __init__(
        self,
        *,
        settings: Settings,
        gateway: StripeGateway | None,
        store: PaymentStore,
        recharges: Recharges,
        wallets: WalletService,
        groups: GroupService,
    ) -> None:
        self.settings = settings
        self.base_url = settings.public_base_url.rstrip("/")
        self.gateway = gateway
        self.store = store
        self.recharges = recharges
        self.wallets = wallets
        self.groups = groups
        self._handlers: dict[str, Callable[[dict[str, Any], Event], Awaitable[None]]] = {
            "checkout.session.completed": self._checkout_completed,
            "checkout.session.async_payment_succeeded": self._payment_succeeded,
            "checkout.session.async_payment_failed": self._payment_failed,
            "checkout.session.expired": self._checkout_expired,
            "customer.subscription.created": self._subscription_changed,
            "customer.subscription.updated": self._subscription_changed,
            "customer.subscription.deleted": self._subscription_changed,
            "account.updated": self._account_changed,
        }

    def _stripe(self) -> StripeGateway:
        if self.gateway is None:
            raise Unavailable(CARD_PAYMENTS_UNAVAILABLE)
        return self.gateway

    async def _provider(self, call: Awaitable[T]) -> T:
        """A Stripe call whose failure becomes the provider's message for the user."""
        try:
            return await call
        except GatewayError as error:
            raise _provider_error(error) from error

    # Recharge --------------------------------------------------------------------

    async def recharge(
        self, caller: Caller, amount: float | int | str | None, currency: str | None
    ) -> dict[str, Any]:
        # The caller's mistakes are 400s, whether or not card payments are on.
        cents = recharge_cents(amount)
        currency = card_currency(currency, "currency")
        stripe = self._stripe()
        user = caller.user
        metadata = {
            "kind": RECHARGE_KIND,
            "user_id": user["_id"],
            "currency": currency,
            "amount": str(cents),
        }
        checkout = await self._provider(
            stripe.payment_checkout(
                amount_cents=cents,
                currency=currency,
                product_name=f"Agora wallet recharge ({currency})",
                metadata=metadata,
                # Stripe fills in {CHECKOUT_SESSION_ID} itself.
                success_url=f"{self.base_url}{AFTER_PAYMENT_PATH}?session_id={{CHECKOUT_SESSION_ID}}",
                cancel_url=f"{self.base_url}{RECHARGE_PATH}?{recharge_query(cents, currency)}",
                customer_email=user.get("email_id"),
            )
        )
        await self.recharges.add(checkout["id"], user["_id"], cents, currency)
        return {"stripe_checkout_data": {"id": checkout["id"], "url": checkout["url"]}}

    async def recharge_status(self, caller: Caller, checkout_id: str) -> dict[str, Any]:
        """What /afterpayment/stripe shows: pending (keep asking), paid, or failed."""
        recharge = await self.recharges.get(checkout_id)
        if recharge is None or recharge["user_id"] != caller.user["_id"]:
            raise NotFound({"session_id": "No such payment"})
        message = None
        if recharge["state"] == RECHARGE_OPEN and self.gateway is not None:
            recharge, message = await self._refresh_recharge(recharge)
        return await self._recharge_reply(recharge, message)

    async def _refresh_recharge(
        self, recharge: dict[str, Any]
    ) -> tuple[dict[str, Any], str | None]:
        """Asks Stripe about a recharge its webhook has not settled yet (it never credits)."""
        checkout = await self._provider(self._stripe().checkout(recharge["_id"]))
        if checkout.get("status") == "expired":
            await self.recharges.close(recharge["_id"], RECHARGE_EXPIRED, "expired")
            return await self.recharges.get(recharge["_id"]) or recharge, None
        intent = checkout.get("payment_intent")
        error = (intent or {}).get("last_payment_error") if isinstance(intent, dict) else None
        # A declined card leaves the checkout open for another try; its message is shown.
        return recharge, (error or {}).get("message")

    async def _recharge_reply(
        self, recharge: dict[str, Any], provider_message: str | None
    ) -> dict[str, Any]:
        state = recharge["state"]
        reply: dict[str, Any] = {"recharge": recharge_view(recharge)}
        if state == RECHARGE_CREDITED:
            amount = format_amount(recharge["amount_cents"], recharge["currency"])
            wallet = await self.wallets.wallet_view(recharge["user_id"], recharge["currency"])
            return {
                **reply,
                "status": STATUS_PAID,
                "message": f"Recharged {amount}",
                "wallet": wallet,
            }
        if state == RECHARGE_OPEN and not provider_message:
            return {**reply, "status": STATUS_PENDING, "message": RECHARGE_MESSAGES[state]}
        message = provider_message or RECHARGE_MESSAGES.get(state) or recharge.get("reason", "")
        return {**reply, "status": STATUS_FAILED, "message": message}

    # Withdrawal ------------------------------------------------------------------

    async def withdraw(
        self,
        caller: Caller,
        wallet_for: str,
        currency: str,
        amount: float | int | str | None,
        request_id: str | None,
    ) -> dict[str, Any]:
        """Pays `amount` (None: the whole balance) out to the caller's connected account;
        without a usable account, the provider's onboarding page to go to first."""
        currency = withdrawal_currency(wallet_for, currency)
        amount_cents = withdrawal_cents(amount)
        self._stripe()
        user = caller.user
        account = await self._connected_account(user)
        if not payouts_ready(account):
            resume = withdrawal_query(currency, amount_cents)
            return {"redirect": await self._onboarding_url(account["id"], resume)}
        started_before = now_ms() - MOVE_RECOVERY_AFTER_MS
        await self._resume_payouts(user["_id"], currency, account["id"], started_before)
        key = request_key(f"withdraw:{user['_id']}:{currency}", request_id)
        move = await self._debited_move(key, user["_id"], currency, amount_cents)
        if move is None:
            raise InvalidInput("Nothing to withdraw")
        wallet = await self._pay_out(move, account["id"])
        return {"success": True, "wallet": wallet}

    async def _connected_account(self, user: User) -> dict[str, Any]:
        """The user's Express account, created on first need and refreshed until usable."""
        account = await self.store.connect_account(user["_id"])
        if account is None:
            created = await self._provider(
                self._stripe().create_account(
                    email=user.get("email_id"),
                    metadata={"user_id": user["_id"]},
                    # Two first withdrawals at once make one account, not two.
                    idempotency_key=f"connect-account:{user['_id']}",
                )
            )
            return await self.store.claim_connect_account(user["_id"], created["id"])
        if payouts_ready(account):
            return account
        # The user may be back from onboarding before its webhook: ask Stripe directly.
        fresh = await self._provider(self._stripe().account(account["id"]))
        await self._store_account_state(fresh, fetched_marker(int(time.time())))
        return await self.store.connect_account(user["_id"]) or account

    async def _onboarding_url(self, account_id: str, resume: str) -> str:
        """The provider's set-up page, which comes back to /profile with the withdrawal
        asked for (`resume`), so it goes on from there without being typed again."""
        link = await self._provider(
            self._stripe().onboarding_link(
                account=account_id,
                refresh_url=f"{self.base_url}{PROFILE_RETRY_WITHDRAW_PATH}&{resume}",
                return_url=f"{self.base_url}{PROFILE_CAN_WITHDRAW_PATH}&{resume}",
            )
        )
        return link["url"]

    async def _debited_move(
        self, key: str, user_id: str, currency: str, amount_cents: int | None
    ) -> dict[str, Any] | None:
        """The withdrawal's move once its debit is through (or settled); None: no balance.

        A retry of the same request finds the first attempt's move and waits for its debit,
        because paying out before the debit lands could pay money the wallet no longer holds.
        """
        for _ in range(MOVE_WAIT_STEPS):
            move = await self.wallets.begin_withdrawal(
                key=key, user_id=user_id, currency=currency, amount_cents=amount_cents
            )
            if move is None or move["state"] in (PAYING, REVERSED) or move.get("external_ref"):
                return move
            await asyncio.sleep(MOVE_WAIT_SECONDS)
        raise Conflict("This withdrawal is still being processed, please try again")

    async def _pay_out(self, move: dict[str, Any], destination: str) -> dict[str, Any]:
        if move["state"] == REVERSED:
            raise PaymentFailed(move.get("reason") or "The withdrawal failed")
        if move["state"] != PAYING:
            return await self.wallets.wallet_view(move["user_id"], move["currency"])
        return await self._transfer(move, destination)

    async def _transfer(self, move: dict[str, Any], destination: str) -> dict[str, Any]:
        """Asks Stripe to pay; the move id is the idempotency key, so this is safe to repeat."""
        move_id = move["_id"]
        try:
            transfer = await self._stripe().transfer(
                amount_cents=move["amount_cents"],
                currency=move["currency"],
                destination=destination,
                group=move_id,
                metadata={"move_id": move_id, "user_id": move["user_id"]},
                idempotency_key=move_id,
            )
        except GatewayError as error:
            if not error.definitive:
                # It may have gone through: keep the debit, the next attempt finds out.
                raise _provider_error(error) from error
            await self.wallets.reverse_withdrawal(move_id, error.message)
            raise PaymentFailed(error.message) from error
        return await self.wallets.finish_withdrawal(move_id, transfer["id"])

    async def resume_stalled_payouts(self, older_than_ms: int = MOVE_RECOVERY_AFTER_MS) -> int:
        """Pays out withdrawals whose edge died (or lost Stripe) between debit and payout,
        without waiting for their owner to withdraw again; every edge sweeps with this.
        Returns how many owners' payouts it resumed."""
        if self.gateway is None:
            return 0
        started_before = now_ms() - older_than_ms
        stalled = await self.wallets.stalled_payouts(started_before)
        owners = sorted({(move["user_id"], move["currency"]) for move in stalled})
        for user_id, currency in owners:
            account = await self.store.connect_account(user_id)
            if not payouts_ready(account):
                continue  # paid once the owner's account can receive (their next withdrawal)
            try:
                await self._resume_payouts(user_id, currency, account["id"], started_before)
            except AgoraError:
                log.warning("resuming payouts of %s failed", user_id, exc_info=True)
        return len(owners)

    async def _resume_payouts(
        self, user_id: str, currency: str, destination: str, started_before: int
    ) -> None:
        """Finishes payouts an earlier request left unanswered (an edge died, Stripe was down).

        A withdrawal move stays 'paying' from its debit until Stripe answered, so it is the
        record of what is owed, whatever moment an edge died at.
        """
        for move in await self.wallets.unpaid_withdrawals(user_id, currency, started_before):
            # Idempotency keys expire after a day; the transfer group does not.
            made = await self._provider(self._stripe().transfers_in_group(move["_id"]))
            if made:
                await self.wallets.finish_withdrawal(move["_id"], made[0]["id"])
                continue
            with contextlib.suppress(PaymentFailed):
                # Refused: the money is back in the wallet and goes out with this request.
                await self._transfer(move, destination)

    # Group subscription ----------------------------------------------------------------

    async def manage_subscription(self, caller: Caller, group_id: str) -> dict[str, Any]:
        """Checkout for a group without a subscription, the billing portal for one with it."""
        stripe = self._stripe()
        group, membership = await self.groups.readable(group_id, caller)
        if not is_admin(membership):
            raise Forbidden("Only the group's admins can manage its subscription")
        subscription = await self.store.group_subscription(group_id)
        group_url = f"{self.base_url}/group/{group_id}"
        if subscription["status"] == SUBSCRIPTION_ACTIVE and subscription["customer"]:
            portal = await self._provider(
                stripe.billing_portal(customer=subscription["customer"], return_url=group_url)
            )
            return {"redirect_url": portal["url"]}
        checkout = await self._provider(
            stripe.subscription_checkout(
                amount_cents=self.settings.stripe_group_price_cents,
                currency=self.settings.stripe_group_price_currency,
                product_name=f"{group.get('title') or group_id}: group subscription",
                metadata={
                    "kind": SUBSCRIPTION_KIND,
                    "group_id": group_id,
                    "user_id": caller.user["_id"],
                },
                success_url=group_url,
                cancel_url=group_url,
                # A group that paid before keeps its customer, and so its payment history.
                customer=subscription["customer"],
            )
        )
        return {"redirect_url": checkout["url"]}

    # Webhook ---------------------------------------------------------------------

    async def handle_webhook(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        stripe = self._stripe()
        if not stripe.webhook_secrets:
            raise Unavailable(CARD_PAYMENTS_UNAVAILABLE)
        try:
            event = stripe.verify_event(payload, signature)
        except InvalidSignature as error:
            log.warning("refused a webhook: %s", error)
            raise InvalidInput("Invalid Stripe signature") from error
        if await self.store.event_seen(event["id"]):
            return {"received": True}
        handler = self._handlers.get(event["type"])
        if handler is not None:
            await handler(event["data"]["object"], event)
        # Remembered only once handled: a failure above makes Stripe deliver it again.
        await self.store.remember_event(event["id"], event["type"], event["created"])
        return {"received": True}

    async def _checkout_completed(self, checkout: dict[str, Any], event: Event) -> None:
        if checkout.get("mode") == "subscription":
            await self._subscription_checkout_completed(checkout)
        elif checkout.get("payment_status") == "paid":
            await self._credit_recharge(checkout)
        # Otherwise a bank debit is still on its way: async_payment_succeeded follows.

    async def _payment_succeeded(self, checkout: dict[str, Any], event: Event) -> None:
        await self._credit_recharge(checkout)

    async def _payment_failed(self, checkout: dict[str, Any], event: Event) -> None:
        if _metadata(checkout).get("kind") == RECHARGE_KIND:
            reason = "The payment did not go through"
            await self.recharges.close(checkout["id"], RECHARGE_FAILED, reason)

    async def _checkout_expired(self, checkout: dict[str, Any], event: Event) -> None:
        if _metadata(checkout).get("kind") == RECHARGE_KIND:
            await self.recharges.close(checkout["id"], RECHARGE_EXPIRED, "expired")

    async def _credit_recharge(self, checkout: dict[str, Any]) -> None:
        if _metadata(checkout).get("kind") != RECHARGE_KIND:
            return
        recharge = await self.recharges.get(checkout["id"])
        if recharge is None:
            # Written right after the checkout was made; 409 makes Stripe deliver again.
            log.error("paid checkout %s has no recharge record", checkout["id"])
            raise Conflict("Unknown checkout session")
        mismatch = checkout_mismatch(recharge, checkout)
        if mismatch is not None:
            log.error("refused to credit checkout %s: %s", checkout["id"], mismatch)
            await self.recharges.close(checkout["id"], RECHARGE_REFUSED, mismatch)
            return
        await self.wallets.credit_external(
            key=f"stripe-checkout:{checkout['id']}",
            user_id=recharge["user_id"],
            currency=recharge["currency"],
            amount_cents=recharge["amount_cents"],
            ref_type=LEDGER_REF_RECHARGE,
            ref_id=checkout["id"],
            title="Card recharge",
            # The recharge shows as credited in the same unit of work as the money.
            along=lambda money: money.recharges.credited(checkout["id"]),
        )

    async def _subscription_checkout_completed(self, checkout: dict[str, Any]) -> None:
        group_id = _metadata(checkout).get("group_id")
        if group_id and checkout.get("subscription"):
            await self.store.attach_subscription(
                group_id, _id_of(checkout["subscription"]), _id_of(checkout.get("customer"))
            )

    async def _subscription_changed(self, subscription: dict[str, Any], event: Event) -> None:
        group_id = _metadata(subscription).get("group_id")
        group_id = group_id or await self.store.group_of_subscription(subscription["id"])
        if not group_id:
            log.info("subscription %s belongs to no group", subscription["id"])
            return
        deleted = event["type"] == "customer.subscription.deleted"
        applied = await self.store.apply_subscription_state(
            group_id,
            subscription_id=subscription["id"],
            customer=_id_of(subscription.get("customer")),
            status=subscription_status(subscription.get("status"), deleted),
            marker=event_marker(event["created"], final=deleted),
        )
        if not applied:
            log.info("%s for group %s is older than its state: ignored", event["id"], group_id)

    async def _account_changed(self, account: dict[str, Any], event: Event) -> None:
        await self._store_account_state(account, event_marker(event["created"]))

    async def _store_account_state(self, account: dict[str, Any], marker: int) -> None:
        await self.store.apply_account_state(
            account["id"],
            charges_enabled=bool(account.get("charges_enabled")),
            payouts_enabled=bool(account.get("payouts_enabled")),
            marker=marker,
        )


def _provider_error(error: GatewayError) -> Exception:
    if error.definitive:
        return PaymentFailed(error.message)
    return Unavailable(PROVIDER_SILENT)


def _metadata(stripe_object: dict[str, Any]) -> dict[str, Any]:
    return stripe_object.get("metadata") or {}


def _id_of(value: Any) -> str:
    """Stripe fields hold an id, or the object when expanded."""
    return value.get("id", "") if isinstance(value, dict) else str(value or "")
