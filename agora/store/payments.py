"""Card payment bookkeeping: recharges, processed Stripe events, connected accounts
and group subscriptions.

Every write is one conditional single-document update; a recharge's credit is written in the
unit of work of the money move that credits it (`Recharges.credited`). State that Stripe
reports through events carries a marker (see `core.payments.event_marker`) and is only
replaced by a higher one, so events delivered late or twice never undo newer state.
"""

from datetime import UTC, datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from agora.core.chat.constants import SESSION_KIND_GROUP
from agora.core.clock import now_ms
from agora.core.payments import RECHARGE_CREDITED, RECHARGE_OPEN, SUBSCRIPTION_ACTIVE
from agora.store.groups import GroupStore
from agora.store.mongo import Indexes
from agora.store.unit_of_work import InUnit
from agora.store.users import UserStore

# Stripe redelivers an event for at most 3 days; a month of ids covers any redelivery.
EVENT_MEMORY_SECONDS = 30 * 24 * 3600
ACCOUNT = "data.stripe_account"


class Recharges(InUnit):
    """Card recharges, known by the provider's checkout id, open until the provider reports."""

    def __init__(self, db: AsyncDatabase) -> None:
        self.recharges = db["recharges"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.recharges, [("user_id", 1), ("created_at", -1)])

    async def add(self, checkout_id: str, user_id: str, amount_cents: int, currency: str) -> None:
        """An open recharge, until the provider reports."""
        now = now_ms()
        await self.recharges.insert_one(
            {
                "_id": checkout_id,
                "user_id": user_id,
                "amount_cents": amount_cents,
                "currency": currency,
                "state": RECHARGE_OPEN,
                "created_at": now,
                "updated_at": now,
            }
        )

    async def get(self, checkout_id: str) -> dict[str, Any] | None:
        return await self.recharges.find_one({"_id": checkout_id})

    async def credited(self, checkout_id: str) -> None:
        """Unconditional: the wallet holds the money, whatever the record said before."""
        await self.recharges.update_one(
            {"_id": checkout_id},
            {"$set": {"state": RECHARGE_CREDITED, "updated_at": now_ms()}},
            session=self.session,
        )

    async def close(self, checkout_id: str, state: str, reason: str) -> None:
        """Ends an open recharge without money (failed, expired, refused); never a credited one."""
        await self.recharges.update_one(
            {"_id": checkout_id, "state": RECHARGE_OPEN},
            {"$set": {"state": state, "reason": reason[:500], "updated_at": now_ms()}},
        )


class PaymentStore:
    def __init__(self, db: AsyncDatabase, user_store: UserStore, group_store: GroupStore) -> None:
        self.events = db["stripe_events"]
        # Connected accounts live on the user, subscriptions on the group (a session).
        self.users = db["users"]
        # Edges keep copies of users and groups: a change to one is announced through its store.
        self.user_store = user_store
        self.group_store = group_store
        self.groups = db["sessions"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.users, [(f"{ACCOUNT}.id", 1)])
        await indexes.ensure(self.groups, [("data.subscription_id", 1)])
        await indexes.ensure(
            self.events, [("processed_at", 1)], expireAfterSeconds=EVENT_MEMORY_SECONDS
        )

    # Processed events ----------------------------------------------------------------

    async def event_seen(self, event_id: str) -> bool:
        return await self.events.find_one({"_id": event_id}, {"_id": 1}) is not None

    async def remember_event(self, event_id: str, event_type: str, created: int) -> None:
        await self.events.update_one(
            {"_id": event_id},
            {
                "$setOnInsert": {
                    "type": event_type,
                    "created": created,
                    "processed_at": datetime.now(UTC),
                }
            },
            upsert=True,
        )

    # Payouts (withdrawals sent to Stripe) ------------------------------------------

    async def connect_account(self, user_id: str) -> dict[str, Any] | None:
        # Projecting "data", not "data.stripe_account": nx-27017 returns a dotted projection
        # as a flat "data.stripe_account" key instead of a nested document.
        user = await self.users.find_one({"_id": user_id}, {"data": 1})
        return ((user or {}).get("data") or {}).get("stripe_account")

    async def claim_connect_account(self, user_id: str, account_id: str) -> dict[str, Any]:
        """Stores the account unless the user has one already; returns the stored one."""
        account = {
            "id": account_id,
            "charges_enabled": False,
            "payouts_enabled": False,
            "marker": 0,
        }
        claimed = await self.users.update_one(
            {"_id": user_id, f"{ACCOUNT}.id": {"$exists": False}}, {"$set": {ACCOUNT: account}}
        )
        if claimed.modified_count:
            await self.user_store.changed(user_id)
        return await self.connect_account(user_id) or account

    async def apply_account_state(
        self, account_id: str, *, charges_enabled: bool, payouts_enabled: bool, marker: int
    ) -> None:
        applied = await self.users.find_one_and_update(
            {f"{ACCOUNT}.id": account_id, f"{ACCOUNT}.marker": {"$lt": marker}},
            {
                "$set": {
                    f"{ACCOUNT}.charges_enabled": charges_enabled,
                    f"{ACCOUNT}.payouts_enabled": payouts_enabled,
                    f"{ACCOUNT}.marker": marker,
                }
            },
            projection={"_id": 1},
        )
        if applied is not None:
            await self.user_store.changed(applied["_id"])

    # Group subscriptions (on the group's session document) --------------------------

    async def group_subscription(self, group_id: str) -> dict[str, Any]:
        """`{id, customer, status}` of the group's subscription; empty values when none."""
        group = await self.groups.find_one(
            {"_id": group_id, "kind": SESSION_KIND_GROUP}, {"data": 1}
        )
        data = (group or {}).get("data") or {}
        return {
            "id": data.get("subscription_id"),
            "customer": data.get("subscription_customer"),
            "status": int(data.get("subscription_status") or 0),
        }

    async def group_of_subscription(self, subscription_id: str) -> str | None:
        group = await self.groups.find_one(
            {"kind": SESSION_KIND_GROUP, "data.subscription_id": subscription_id}, {"_id": 1}
        )
        return group["_id"] if group else None

    async def attach_subscription(self, group_id: str, subscription_id: str, customer: str) -> None:
        """A completed checkout names the subscription, unless an active one is recorded
        already (its own events, applied first, then hold the newer truth)."""
        await self.groups.update_one(
            _group_where(
                group_id, _missing_or("data.subscription_status", {"$ne": SUBSCRIPTION_ACTIVE})
            ),
            {
                "$set": {
                    "data.subscription_id": subscription_id,
                    "data.subscription_customer": customer,
                }
            },
        )
        await self.group_store.changed(group_id)

    async def apply_subscription_state(
        self, group_id: str, *, subscription_id: str, customer: str, status: int, marker: int
    ) -> bool:
        result = await self.groups.update_one(
            _group_where(group_id, _missing_or("data.subscription_marker", {"$lt": marker})),
            {
                "$set": {
                    "data.subscription_id": subscription_id,
                    "data.subscription_customer": customer,
                    "data.subscription_status": status,
                    "data.subscription_marker": marker,
                }
            },
        )
        if result.modified_count:
            await self.group_store.changed(group_id)
        return result.modified_count > 0


def _group_where(group_id: str, condition: dict[str, Any]) -> dict[str, Any]:
    """The group, if `condition` holds. Spelled with `$and`: nx-27017's update_one applies a
    top-level `$or` written beside other fields to the first document matching the `$or`
    alone, which may be another group."""
    return {"$and": [{"_id": group_id, "kind": SESSION_KIND_GROUP}, condition]}


def _missing_or(field: str, condition: dict[str, Any]) -> dict[str, Any]:
    """`field` is absent or meets `condition`. Spelled out because `$lt` never matches a
    missing field, and on nx-27017 `$ne` does not either (on MongoDB it does)."""
    return {"$or": [{field: {"$exists": False}}, {field: condition}]}
