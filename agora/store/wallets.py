"""Wallets, their ledger and money moves in MongoDB.

The ledger is the truth: entry `{wallet}:{seq}` holds the balance after it (`change_to`),
so entries form a chain per wallet. Appending claims the next `_id`, and the unique `_id`
makes that claim atomic without transactions (nx-27017 cannot run concurrent ones, and a
standalone MongoDB has none). A second unique index on (wallet_id, ref_id) lets a move touch
a wallet at most once, however often it is retried or by however many edges. The wallet
document only caches the head of the chain and may lag behind it after a crash; readers
roll it forward.
"""

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.money import Posting
from agora.store.mongo import ensure_index

# Heads this edge has seen; a stale one costs one failed append, never a wrong balance.
KNOWN_HEADS_MAX = 50_000


@dataclass(frozen=True)
class Head:
    seq: int
    balance: int


@dataclass(frozen=True)
class Appended:
    """The entry for this ref, whether this call wrote it or an earlier one did."""

    entry: dict[str, Any]


@dataclass(frozen=True)
class Short:
    """Refused: the wallet holds `balance` cents, less than the debit needs."""

    balance: int


class WalletStore:
    def __init__(self, db: AsyncDatabase) -> None:
        self.wallets = db["wallets"]
        self.ledger = db["ledger_entries"]
        self.moves = db["money_moves"]
        self._heads: OrderedDict[str, Head] = OrderedDict()

    async def ensure_indexes(self) -> None:
        await ensure_index(self.ledger, [("wallet_id", 1), ("ref_id", 1)], unique=True)
        await ensure_index(self.ledger, [("wallet_id", 1), ("seq", -1)])
        await ensure_index(self.wallets, [("user_id", 1)])
        await ensure_index(self.moves, [("key", 1)], unique=True)
        await ensure_index(self.moves, [("state", 1), ("created_at", 1)])

    # Wallets ------------------------------------------------------------------

    async def open(
        self, wallet_id: str, user_id: str, currency: str, wallet_for: str, now: int
    ) -> dict[str, Any]:
        """The wallet, created empty on first use."""
        found = await self.wallets.find_one({"_id": wallet_id})
        if found is not None:
            return found
        doc = {
            "_id": wallet_id,
            "user_id": user_id,
            "wallet_for": wallet_for,
            "currency": currency,
            "balance": 0,
            "seq": 0,
            "created_at": now,
        }
        try:
            await self.wallets.insert_one(doc)
        except DuplicateKeyError:
            return await self.wallets.find_one({"_id": wallet_id}) or doc
        return doc

    async def get(self, wallet_id: str) -> dict[str, Any] | None:
        """The wallet with its balance rolled forward to the head of its ledger."""
        wallet = await self.wallets.find_one({"_id": wallet_id})
        if wallet is None:
            return None
        head = await self._follow(wallet_id, Head(wallet["seq"], wallet["balance"]))
        return {**wallet, "seq": head.seq, "balance": head.balance}

    async def of_user(self, user_id: str) -> list[dict[str, Any]]:
        found = await self.wallets.find({"user_id": user_id}).to_list()
        return [await self.get(w["_id"]) or w for w in found]

    async def mark_granted(self, wallet_id: str, day: str | None) -> None:
        await self.wallets.update_one(
            {"_id": wallet_id}, {"$set": {"welcomed": True, **({"daily": day} if day else {})}}
        )

    # Ledger -------------------------------------------------------------------

    async def append(
        self, posting: Posting, *, ref_type: str, ref_id: str, now: int
    ) -> Appended | Short:
        """Adds the posting to its wallet's chain once; debits never go below zero."""
        head = self._heads.get(posting.wallet_id) or await self._fresh_head(posting.wallet_id)
        checked_fresh = False
        while True:
            balance = head.balance + posting.diff_cents
            if balance < 0:
                if not checked_fresh:
                    # The remembered head may be old: refuse only on what is stored.
                    head, checked_fresh = await self._fresh_head(posting.wallet_id), True
                    continue
                done = await self.ledger.find_one(
                    {"wallet_id": posting.wallet_id, "ref_id": ref_id}
                )
                return Appended(done) if done else Short(head.balance)
            entry = {
                "_id": f"{posting.wallet_id}:{head.seq + 1}",
                "wallet_id": posting.wallet_id,
                "user_id": posting.user_id,
                "currency": posting.currency,
                "seq": head.seq + 1,
                "diff": posting.diff_cents,
                "change_to": balance,
                "ref_type": ref_type,
                "ref_id": ref_id,
                "title": posting.title,
                "created_at": now,
            }
            try:
                await self.ledger.insert_one(entry)
            except DuplicateKeyError:
                done = await self.ledger.find_one(
                    {"wallet_id": posting.wallet_id, "ref_id": ref_id}
                )
                if done is not None:
                    return Appended(done)
                # Another move took this place in the chain: continue from the new head.
                head = await self._follow(posting.wallet_id, head)
                continue
            await self._advance(posting.wallet_id, Head(entry["seq"], balance))
            return Appended(entry)

    async def entries(self, wallet_id: str, before_seq: int | None, limit: int) -> list[dict]:
        query: dict[str, Any] = {"wallet_id": wallet_id}
        if before_seq is not None:
            query["seq"] = {"$lt": before_seq}
        return await self.ledger.find(query).sort("seq", -1).limit(limit).to_list()

    async def audit(self, wallet_ids: list[str] | None = None) -> list[str]:
        """Wallets whose balance is not the sum of their entries or whose chain has a gap."""
        query = {"_id": {"$in": wallet_ids}} if wallet_ids is not None else {}
        broken = []
        async for wallet in self.wallets.find(query, {"_id": 1}):
            head = await self.get(wallet["_id"])
            entries = await self.ledger.find({"wallet_id": wallet["_id"]}).sort("seq", 1).to_list()
            running, chain_ok = 0, True
            for position, entry in enumerate(entries, start=1):
                running += entry["diff"]
                chain_ok &= entry["seq"] == position and entry["change_to"] == running
            if head is None or not chain_ok or running != head["balance"]:
                broken.append(wallet["_id"])
        return broken

    async def _fresh_head(self, wallet_id: str) -> Head:
        wallet = await self.wallets.find_one({"_id": wallet_id}, {"seq": 1, "balance": 1})
        start = Head(wallet["seq"], wallet["balance"]) if wallet else Head(0, 0)
        return await self._follow(wallet_id, start)

    async def _follow(self, wallet_id: str, head: Head) -> Head:
        """Walks the chain past `head` to its end and records what it found."""
        start = head
        while True:
            after = await self.ledger.find_one({"_id": f"{wallet_id}:{head.seq + 1}"})
            if after is None:
                break
            head = Head(after["seq"], after["change_to"])
        if head != start:
            await self._advance(wallet_id, head)
        else:
            self._remember(wallet_id, head)
        return head

    async def _advance(self, wallet_id: str, head: Head) -> None:
        """Moves the cached head forward, never back, whatever order edges write in."""
        await self.wallets.update_one(
            {"_id": wallet_id, "seq": {"$lt": head.seq}},
            {"$set": {"seq": head.seq, "balance": head.balance}},
        )
        self._remember(wallet_id, head)

    def _remember(self, wallet_id: str, head: Head) -> None:
        known = self._heads.get(wallet_id)
        if known is None or known.seq < head.seq:
            self._heads[wallet_id] = head
        self._heads.move_to_end(wallet_id)
        if len(self._heads) > KNOWN_HEADS_MAX:
            self._heads.popitem(last=False)

    # Moves --------------------------------------------------------------------

    async def start_move(self, move: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Records the move under its idempotency key; an earlier one with that key wins."""
        try:
            await self.moves.insert_one(move)
        except DuplicateKeyError:
            existing = await self.moves.find_one({"key": move["key"]})
            if existing is not None:
                return existing, False
            raise
        return move, True

    async def get_move(self, move_id: str) -> dict[str, Any] | None:
        return await self.moves.find_one({"_id": move_id})

    async def set_move_state(
        self, move_id: str, from_states: tuple[str, ...], state: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Moves a move on only from the states given; None when another writer got there."""
        return await self.moves.find_one_and_update(
            {"_id": move_id, "state": {"$in": list(from_states)}},
            {"$set": {"state": state, **fields}},
            return_document=ReturnDocument.AFTER,
        )

    async def refused_moves_since(self, since: int, limit: int) -> list[dict]:
        query = {"state": "refused", "refused_at": {"$gte": since}}
        return await self.moves.find(query).limit(limit).to_list()

    async def has_entry(self, wallet_id: str, ref_id: str) -> bool:
        return await self._entry_for(wallet_id, ref_id) is not None

    async def _entry_for(self, wallet_id: str, ref_id: str) -> dict[str, Any] | None:
        return await self.ledger.find_one({"wallet_id": wallet_id, "ref_id": ref_id})

    async def stalled_moves(self, state: str, started_before: int, limit: int) -> list[dict]:
        query = {"state": state, "created_at": {"$lt": started_before}}
        return await self.moves.find(query).sort("created_at", 1).limit(limit).to_list()
