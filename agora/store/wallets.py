"""Wallets, their ledger and money moves in MongoDB.

The ledger is the truth: entry `{wallet}:{seq}` holds the balance after it (`change_to`),
so entries form a chain per wallet. Appending claims the next `_id`, and the unique `_id`
makes that claim atomic by itself, so the chain holds where a move's writes each stand alone
(nx-27017, a standalone MongoDB). In a unit of work with a transaction (`unit_of_work.py`: a
replica set) a move's entries, heads and record are stored together or not at all, and two
units claiming one `_id` conflict: one of them runs again. A second unique index on
(wallet_id, ref_id) lets a move touch a wallet at most once, however often it is retried or by
however many edges. Entries also carry what the wallet holds for its owner's posts (`held_to`,
issue 32), and one that moves a post's hold carries that post's hold after it (`item_id`,
`item_hold`), computed from the head it is appended after: exact, since only one entry can
follow a head. The wallet document only caches the head of the chain: it is written every
HEAD_EVERY entries (and may lag further after a crash), and readers roll it forward by ids,
HEAD_EVERY entries a query.
"""

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from agora.core.documents import LedgerEntry, Wallet
from agora.core.money import DONE, LEDGER_REF_OFFER, ItemHold, Posting, next_hold
from agora.core.money import PENDING as MOVE_PENDING
from agora.store.batched_writes import BatchedWrites
from agora.store.mongo import Indexes, new_id
from agora.store.reads_together import find_in
from agora.store.unit_of_work import InUnit, SessionWrites, Unit
from agora.tools.background import Turns

# Heads this edge has seen; a stale one costs one failed append, never a wrong balance.
KNOWN_HEADS_MAX = 50_000
# Writing the head on every append would cost a third of a transfer's writes; a reader
# finds the entries past a cached head in one query by id instead.
HEAD_EVERY = 8


@dataclass(frozen=True)
class Head:
    seq: int
    balance: int  # available + held
    held: int = 0

    @classmethod
    def of(cls, doc: dict[str, Any]) -> "Head":
        """The head a wallet document caches, or the one an entry leaves."""
        if "change_to" in doc:
            return cls(doc["seq"], doc["change_to"], doc.get("held_to", 0))
        return cls(doc["seq"], doc["balance"], doc.get("held", 0))


@dataclass(frozen=True)
class Appended:
    """The entry for this ref, whether this call wrote it or an earlier one did."""

    entry: dict[str, Any]


@dataclass(frozen=True)
class Short:
    """Refused: the wallet has `balance` cents available, less than the `needed` the debit
    takes from available (what a post's hold covers is not counted)."""

    balance: int
    needed: int


class MoveKeyTaken(Exception):
    """A money move was recorded under this idempotency key before (`start_move`)."""


class WalletStore(InUnit):
    def __init__(self, db: AsyncDatabase) -> None:
        self.wallets = db["wallets"]
        self.ledger = db["ledger_entries"]
        self.moves = db["money_moves"]
        self._entry_writes = BatchedWrites(self.ledger)
        self._head_writes = BatchedWrites(self.wallets)
        self._move_writes = BatchedWrites(self.moves)
        self._heads: OrderedDict[str, Head] = OrderedDict()
        # Appends to one wallet from this edge take turns: racing them would make all but
        # one fail on the unique id and pay a lookup and another round to try again. (A unit
        # in a transaction takes its wallets' turns for all of its length instead.)
        self._turns = Turns()

    def bound(self, unit: Unit) -> "WalletStore":
        bound = super().bound(unit)
        if unit.session is not None:
            bound._entry_writes = SessionWrites(self.ledger, unit.session)
            bound._head_writes = SessionWrites(self.wallets, unit.session)
            bound._move_writes = SessionWrites(self.moves, unit.session)
        return bound

    async def ensure_indexes(self, indexes: Indexes) -> None:
        await indexes.ensure(self.ledger, [("wallet_id", 1), ("ref_id", 1)], unique=True)
        await indexes.ensure(self.ledger, [("wallet_id", 1), ("seq", -1)])
        # Item first: nx-27017 answers from the first field's index, and a post has few entries.
        await indexes.ensure(self.ledger, [("item_id", 1), ("wallet_id", 1), ("seq", -1)])
        await indexes.ensure(self.wallets, [("user_id", 1)])
        await indexes.ensure(self.moves, [("key", 1)], unique=True)
        await indexes.ensure(self.moves, [("state", 1), ("created_at", 1)])
        await indexes.ensure(self.moves, [("user_id", 1), ("currency", 1), ("state", 1)])
        await indexes.ensure(self.moves, [("state", 1), ("rechecked", 1), ("refused_at", 1)])
        await indexes.ensure(self.moves, [("fee_user_ids", 1), ("created_at", -1)])
        await indexes.ensure(self.moves, [("cs_id", 1), ("created_at", 1)])

    # Wallets ------------------------------------------------------------------

    async def open(
        self, wallet_id: str, user_id: str, currency: str, wallet_for: str, now: int
    ) -> dict[str, Any]:
        """The wallet, created empty on first use."""
        found = await self.wallets.find_one({"_id": wallet_id}, session=self.session)
        if found is not None:
            return found
        doc = {
            "_id": wallet_id,
            "user_id": user_id,
            "wallet_for": wallet_for,
            "currency": currency,
            "balance": 0,
            "held": 0,
            "seq": 0,
            "created_at": now,
        }
        try:
            await self.wallets.insert_one(doc, session=self.session)
        except DuplicateKeyError:
            return await self.wallets.find_one({"_id": wallet_id}, session=self.session) or doc
        return doc

    async def ensure(
        self, wallet_id: str, user_id: str, currency: str, wallet_for: str, now: int
    ) -> None:
        """Creates the wallet unless this edge knows it exists (wallets are never deleted)."""
        if wallet_id not in self._heads:
            wallet = await self.open(wallet_id, user_id, currency, wallet_for, now)
            await self._learned(wallet_id, Head.of(wallet))

    async def get(self, wallet_id: str) -> Wallet | None:
        """The wallet with its balance rolled forward to the head of its ledger."""
        wallet = await self.wallets.find_one({"_id": wallet_id}, session=self.session)
        if wallet is None:
            return None
        head = await self._follow(wallet_id, Head.of(wallet))
        return {**wallet, "seq": head.seq, "balance": head.balance, "held": head.held}

    async def of_user(self, user_id: str) -> list[Wallet]:
        found = await self.wallets.find({"user_id": user_id}, session=self.session).to_list()
        return [await self.get(w["_id"]) or w for w in found]

    async def mark_granted(self, wallet_id: str, day: str | None) -> None:
        await self.wallets.update_one(
            {"_id": wallet_id},
            {"$set": {"welcomed": True, **({"daily": day} if day else {})}},
            session=self.session,
        )

    # Ledger -------------------------------------------------------------------

    async def append(
        self, posting: Posting, *, ref_type: str, ref_id: str, now: int, maybe_applied: bool
    ) -> Appended | Short:
        """Adds the posting to its wallet's chain once; debits never go below zero.

        `maybe_applied` says an earlier attempt of this move may have appended it already
        (a retry, a sweep); a first attempt skips looking for that, which costs a query.
        """
        if self.session is not None:
            return await self._append_in_transaction(posting, ref_type, ref_id, now, maybe_applied)
        async with self._turns.take([posting.wallet_id]):
            return await self._append(posting, ref_type, ref_id, now, maybe_applied)

    async def _append_in_transaction(
        self, posting: Posting, ref_type: str, ref_id: str, now: int, maybe_applied: bool
    ) -> Appended | Short:
        """In a transaction the chain is read as the unit's snapshot has it, to its end, and
        an entry appended after that end conflicts with no stored one: a concurrent unit that
        claims the same id makes one of the two run again (a write conflict), never a
        duplicate to recover from here (an error aborts the transaction anyway)."""
        if maybe_applied and (done := await self._entry_for(posting.wallet_id, ref_id)):
            return Appended(done)
        known = self._heads.get(posting.wallet_id)
        head = await (
            self._follow(posting.wallet_id, known) if known else self._fresh_head(posting.wallet_id)
        )
        return await self._append(posting, ref_type, ref_id, now, False, head)

    async def _append(
        self,
        posting: Posting,
        ref_type: str,
        ref_id: str,
        now: int,
        maybe_applied: bool,
        fresh: Head | None = None,
    ) -> Appended | Short:
        """`fresh`: the head as stored, already read (in a transaction)."""
        head = (
            fresh or self._heads.get(posting.wallet_id) or await self._fresh_head(posting.wallet_id)
        )
        checked_fresh = fresh is not None
        while True:
            held_diff, item_hold = 0, None
            if posting.hold is not None:
                before = await self._item_hold(posting.wallet_id, posting.hold.item_id, head.seq)
                held_diff, item_hold = next_hold(before, posting.hold, posting.diff_cents)
            balance, held = head.balance + posting.diff_cents, head.held + held_diff
            if balance - held < 0:
                if not checked_fresh:
                    # The remembered head may be old: refuse only on what is stored.
                    head, checked_fresh = await self._fresh_head(posting.wallet_id), True
                    continue
                done = await self._entry_for(posting.wallet_id, ref_id) if maybe_applied else None
                if done:
                    return Appended(done)
                available = head.balance - head.held
                return Short(available, available - (balance - held))
            entry = _entry(posting, head.seq + 1, balance, ref_type, ref_id, now)
            if held:
                entry["held_to"] = held
            if item_hold is not None:
                entry["held_diff"] = held_diff
                entry["item_id"] = posting.hold.item_id
                entry["item_hold"] = item_hold.fields()
            try:
                await self._entry_writes.insert(entry)
            except DuplicateKeyError:
                if self.session is not None:
                    raise
                moved, walked = await self._walk(posting.wallet_id, head)
                mine = next((e for e in walked if e["ref_id"] == ref_id), None)
                if mine is not None:
                    return Appended(mine)
                if moved == head:
                    # The chain did not grow, so the unique ref refused it: done before.
                    done = await self._entry_for(posting.wallet_id, ref_id)
                    if done is not None:
                        return Appended(done)
                head = moved
                continue
            await self._learned(posting.wallet_id, Head(entry["seq"], balance, held))
            if entry["seq"] % HEAD_EVERY == 0:
                await self._head_writes.update(
                    {"_id": posting.wallet_id, "seq": {"$lt": entry["seq"]}},
                    {"$set": {"seq": entry["seq"], "balance": balance, "held": held}},
                )
            return Appended(entry)

    async def _item_hold(self, wallet_id: str, item_id: str, at_seq: int) -> ItemHold:
        """The post's hold as entry `at_seq` of the wallet left it."""
        last = await self.ledger.find_one(
            {"wallet_id": wallet_id, "item_id": item_id, "seq": {"$lte": at_seq}},
            sort=[("seq", -1)],
            session=self.session,
        )
        return ItemHold.of(last["item_hold"] if last else None)

    async def item_hold(self, wallet_id: str, item_id: str) -> ItemHold | None:
        """The post's hold now (None: the wallet never held for it)."""
        last = await self.ledger.find_one(
            {"wallet_id": wallet_id, "item_id": item_id}, sort=[("seq", -1)], session=self.session
        )
        return ItemHold.of(last["item_hold"]) if last else None

    async def entries(
        self, wallet_id: str, before_seq: int | None, limit: int
    ) -> list[LedgerEntry]:
        query: dict[str, Any] = {"wallet_id": wallet_id}
        if before_seq is not None:
            query["seq"] = {"$lt": before_seq}
        return (
            await self.ledger.find(query, session=self.session)
            .sort("seq", -1)
            .limit(limit)
            .to_list()
        )

    async def audit(self, wallet_ids: list[str] | None = None) -> list[str]:
        """Wallets whose balance is not the sum of their entries or whose chain has a gap."""
        if wallet_ids is None:
            found, entries = (
                await self.wallets.find({}).to_list(),
                await self.ledger.find({}).to_list(),
            )
        else:
            found = await find_in(self.wallets, "_id", wallet_ids)
            entries = await find_in(self.ledger, "wallet_id", [w["_id"] for w in found])
        wallets = {w["_id"]: w for w in found}
        chains: dict[str, list[dict[str, Any]]] = {}
        for entry in sorted(entries, key=lambda e: (e["wallet_id"], e["seq"])):
            chains.setdefault(entry["wallet_id"], []).append(entry)
        broken = []
        for wallet_id, wallet in wallets.items():
            running, held, chain_ok = 0, 0, True
            holds: dict[str, int] = {}
            chain = chains.get(wallet_id, [])
            for position, entry in enumerate(chain, start=1):
                running += entry["diff"]
                held += entry.get("held_diff", 0)
                if "item_id" in entry:
                    holds[entry["item_id"]] = entry["item_hold"]["held"]
                # Nothing available or held below zero; what the posts hold is what is held.
                chain_ok &= (
                    entry["seq"] == position
                    and entry["change_to"] == running
                    and entry.get("held_to", 0) == held == sum(holds.values())
                    and running - held >= 0
                    and min(holds.values(), default=0) >= 0
                )
            # The wallet document may lag behind its chain, never run ahead of it.
            cached_ok = wallet["seq"] <= len(chain) and (
                wallet["seq"] == 0 or Head.of(chain[wallet["seq"] - 1]) == Head.of(wallet)
            )
            if not chain_ok or not cached_ok:
                broken.append(wallet_id)
        return broken

    async def _fresh_head(self, wallet_id: str) -> Head:
        wallet = await self.wallets.find_one(
            {"_id": wallet_id}, {"seq": 1, "balance": 1, "held": 1}, session=self.session
        )
        start = Head.of(wallet) if wallet else Head(0, 0)
        return await self._follow(wallet_id, start)

    async def _follow(self, wallet_id: str, head: Head) -> Head:
        return (await self._walk(wallet_id, head))[0]

    async def _walk(self, wallet_id: str, head: Head) -> tuple[Head, list[dict[str, Any]]]:
        """Walks the chain past `head` to its end; returns the end and the entries passed."""
        start, walked = head, []
        while True:
            ahead = [f"{wallet_id}:{head.seq + n}" for n in range(1, HEAD_EVERY + 1)]
            ids = {"_id": {"$in": ahead}}
            found = {e["seq"]: e async for e in self.ledger.find(ids, session=self.session)}
            while head.seq + 1 in found:
                after = found[head.seq + 1]
                walked.append(after)
                head = Head.of(after)
            if len(found) < HEAD_EVERY:
                break
        if head.seq - start.seq >= HEAD_EVERY:
            # Lagging further than appends leave it: a crash or a lost write; caught up once.
            await self._advance(wallet_id, head)
        else:
            await self._learned(wallet_id, head)
        return head, walked

    async def _advance(self, wallet_id: str, head: Head) -> None:
        """Moves the cached head forward, never back, whatever order edges write in."""
        await self.wallets.update_one(
            {"_id": wallet_id, "seq": {"$lt": head.seq}},
            {"$set": {"seq": head.seq, "balance": head.balance, "held": head.held}},
            session=self.session,
        )
        await self._learned(wallet_id, head)

    async def _learned(self, wallet_id: str, head: Head) -> None:
        """A head this edge may build on, once it is stored (in a transaction: committed)."""
        await self.unit.after_commit(lambda: self._remember(wallet_id, head))

    def _remember(self, wallet_id: str, head: Head) -> None:
        known = self._heads.get(wallet_id)
        if known is None or known.seq < head.seq:
            self._heads[wallet_id] = head
        self._heads.move_to_end(wallet_id)
        if len(self._heads) > KNOWN_HEADS_MAX:
            self._heads.popitem(last=False)

    # Moves --------------------------------------------------------------------

    async def start_move(self, terms: dict[str, Any], now: int) -> dict[str, Any]:
        """Records a pending move under its idempotency key (`terms["key"]`) and a new id;
        raises MoveKeyTaken when an earlier one has that key (it wins: in a transaction the
        unit ends here, so the caller looks it up after)."""
        move = {"_id": new_id(), "state": MOVE_PENDING, "created_at": now, **terms}
        try:
            await self._move_writes.insert(move)
        except DuplicateKeyError as taken:
            raise MoveKeyTaken(move["key"]) from taken
        return move

    async def move_with_key(self, key: str) -> dict[str, Any] | None:
        return await self.moves.find_one({"key": key}, session=self.session)

    async def moves_of(
        self, user_id: str, currency: str, state: str, started_before: int
    ) -> list[dict[str, Any]]:
        query = {
            "user_id": user_id,
            "currency": currency,
            "state": state,
            "created_at": {"$lt": started_before},
        }
        return await self.moves.find(query).sort("created_at", 1).to_list()

    async def moves_paying_fees_to(self, user_id: str, limit: int) -> list[dict[str, Any]]:
        """Finished offer moves that paid this user a finder's fee, newest first."""
        # `$in`, not plain equality: nx-27017 misses array elements inserted through a batch
        # (insert_many) on equality, yet finds them with `$in`.
        query = {"fee_user_ids": {"$in": [user_id]}, "state": "done"}
        return await self.moves.find(query).sort("created_at", -1).limit(limit).to_list()

    async def offers_paid_in(self, cs_id: str) -> list[dict[str, Any]]:
        """Finished offer moves given in this chat, oldest first."""
        query = {"cs_id": cs_id, "ref_type": LEDGER_REF_OFFER, "state": DONE}
        return await self.moves.find(query).sort("created_at", 1).to_list()

    async def get_move(self, move_id: str) -> dict[str, Any] | None:
        return await self.moves.find_one({"_id": move_id}, session=self.session)

    async def set_move_state(
        self, move_id: str, from_states: tuple[str, ...], state: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Moves a move on only from the states given; None when another writer got there."""
        return await self.moves.find_one_and_update(
            {"_id": move_id, "state": {"$in": list(from_states)}},
            {"$set": {"state": state, **fields}},
            return_document=ReturnDocument.AFTER,
            session=self.session,
        )

    async def refused_moves_to_recheck(self, refused_before: int, limit: int) -> list[dict]:
        """Refused moves not re-checked yet, oldest first; each is re-checked once."""
        query = {"state": "refused", "rechecked": False, "refused_at": {"$lt": refused_before}}
        return await self.moves.find(query).sort("refused_at", 1).limit(limit).to_list()

    async def mark_rechecked(self, move_ids: list[str]) -> None:
        await self.moves.update_many({"_id": {"$in": move_ids}}, {"$set": {"rechecked": True}})

    async def has_entry(self, wallet_id: str, ref_id: str) -> bool:
        return await self._entry_for(wallet_id, ref_id) is not None

    async def _entry_for(self, wallet_id: str, ref_id: str) -> LedgerEntry | None:
        return await self.ledger.find_one(
            {"wallet_id": wallet_id, "ref_id": ref_id}, session=self.session
        )

    async def finish_move(
        self, move_id: str, from_states: tuple[str, ...], fields: dict[str, Any]
    ) -> None:
        await self._move_writes.update(
            {"_id": move_id, "state": {"$in": list(from_states)}}, {"$set": fields}
        )

    async def stalled_moves(self, state: str, started_before: int, limit: int) -> list[dict]:
        query = {"state": state, "created_at": {"$lt": started_before}}
        return await self.moves.find(query).sort("created_at", 1).limit(limit).to_list()


def _entry(
    posting: Posting, seq: int, balance: int, ref_type: str, ref_id: str, now: int
) -> dict[str, Any]:
    return {
        "_id": f"{posting.wallet_id}:{seq}",
        "wallet_id": posting.wallet_id,
        "user_id": posting.user_id,
        "currency": posting.currency,
        "seq": seq,
        "diff": posting.diff_cents,
        "change_to": balance,
        "ref_type": ref_type,
        "ref_id": ref_id,
        "title": posting.title,
        "created_at": now,
    }
