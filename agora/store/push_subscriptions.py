"""Push subscriptions: one document per endpoint, owned by a user and the auth key that
registered it (logging that key out deletes it); a user keeps the few registered last."""

import hashlib

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase

from agora.core.clock import now_ms
from agora.core.push import Subscription
from agora.store.mongo import Indexes
from agora.store.reads_together import find_in

SUBSCRIPTION_FIELDS = {"user_id": 1, "endpoint": 1, "p256dh": 1, "auth": 1, "updated_at": 1}
NEWEST_FIRST = [("updated_at", -1), ("_id", 1)]


def _endpoint_id(endpoint: str) -> str:
    """Endpoints are long URLs; their digest is the document's (unique) id."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


class PushSubscriptionStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.subscriptions = db["push_subscriptions"]

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.subscriptions, [("user_id", 1)])
        await indexes.ensure(self.subscriptions, [("key_hash", 1)])

    async def save(
        self, user_id: str, key_hash: str, subscription: Subscription, keep: int
    ) -> str | None:
        """The same endpoint again refreshes its one document (maybe for another user: a
        browser profile that logged in as someone else); of the user's, the `keep` saved last
        are kept. Returns whom the endpoint belonged to."""
        now = now_ms()
        before = await self.subscriptions.find_one_and_update(
            {"_id": _endpoint_id(subscription.endpoint)},
            {
                "$set": {
                    "endpoint": subscription.endpoint,
                    "p256dh": subscription.p256dh,
                    "auth": subscription.auth,
                    "user_id": user_id,
                    "key_hash": key_hash,
                    "updated_at": now,
                },
                "$setOnInsert": {"created_at": now},
            },
            projection={"user_id": 1},
            upsert=True,
            return_document=ReturnDocument.BEFORE,
        )
        await self._keep_newest(user_id, keep)
        return before["user_id"] if before else None

    async def _keep_newest(self, user_id: str, keep: int) -> None:
        older = self.subscriptions.find({"user_id": user_id}, {"_id": 1}).sort(NEWEST_FIRST)
        replaced = [d["_id"] for d in await older.skip(keep).to_list()]
        if replaced:
            # One another account took over meanwhile is theirs now, not replaced.
            await self.subscriptions.delete_many({"_id": {"$in": replaced}, "user_id": user_id})

    async def of_users(self, user_ids: list[str], per_user: int) -> dict[str, list[Subscription]]:
        """The subscriptions of each of these users who has any: the `per_user` saved last
        (more were kept before there was a limit)."""
        every = await find_in(self.subscriptions, "user_id", user_ids, SUBSCRIPTION_FIELDS)
        found: dict[str, list[Subscription]] = {}
        for d in sorted(every, key=lambda d: (-d.get("updated_at", 0), d["_id"])):
            kept = found.setdefault(d["user_id"], [])
            if len(kept) < per_user:
                kept.append(Subscription(d["endpoint"], d["p256dh"], d["auth"]))
        return found

    async def remove(self, endpoint: str) -> None:
        await self.subscriptions.delete_one({"_id": _endpoint_id(endpoint)})

    async def remove_for_key(self, key_hash: str) -> None:
        await self.subscriptions.delete_many({"key_hash": key_hash})
