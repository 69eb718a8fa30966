"""Wallets: member points, ledger pages and money moves that are atomic and idempotent.

A move is recorded under its idempotency key, its postings are appended to the ledger (each
at most once per wallet, see agora/store/wallets.py), the posts' copies of the holds they move
are written, then it is marked done: all in one unit of work (`store/unit_of_work.py`), so on
a replica set the move is stored whole or not at all. Where each write stands alone (nx-27017,
a standalone MongoDB), whoever finds a move unfinished (a retry, or the recovery sweep after an
edge died) drives it on with the same steps, so it ends exactly once.
"""

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agora.core.clock import now_ms
from agora.core.documents import LedgerEntry
from agora.core.errors import Conflict, Forbidden, InvalidInput
from agora.core.money import (
    CENTS_PER_UNIT,
    CURRENCY_POINTS,
    DAILY_POINTS,
    DONE,
    LEDGER_PAGE,
    LEDGER_REF_DAILY,
    LEDGER_REF_REVERSAL,
    LEDGER_REF_WELCOME,
    LEDGER_REF_WITHDRAW,
    MOVE_RECOVERY_AFTER_MS,
    PAYING,
    PENDING,
    REFUSED,
    REVERSED,
    STARTER_POINTS,
    WALLET_FOR_USER,
    ItemHold,
    Posting,
    format_amount,
    ledger_entry_view,
    move_terms,
    points_day,
    same_terms,
    wallet_id,
    wallet_view,
    wallets_in_order,
)
from agora.realtime.emitter import RealtimeEmitter
from agora.services.events import Events, PostHoldMoved
from agora.store.money import MoneyStores, MoneyUnitOfWork
from agora.store.wallets import Appended, MoveKeyTaken, Short, WalletStore

log = logging.getLogger("agora.wallet")

RECOVERY_BATCH = 100

# Whether a user's card payouts are enabled (`payments.PayoutsStatus`, when configured).
ChargeEnabled = Callable[[str], Awaitable[bool]]
# Writes that go with a money move once it is through, in its unit of work (a recharge's record).
Along = Callable[[MoneyStores], Awaitable[None]]
Entries = dict[str, LedgerEntry]  # by wallet: the entry a move appended to it


@dataclass(frozen=True)
class Moved:
    """A money move as its unit of work stored it, and what to tell once it is stored."""

    move: dict[str, Any]
    entries: Entries = field(default_factory=dict)
    # The entries whose posts' copies of their holds the move wrote.
    copied: list[LedgerEntry] = field(default_factory=list)


async def _payouts_unknown(_user_id: str) -> bool:
    return False


class WalletService:
    def __init__(
        self,
        *,
        store: WalletStore,
        money: MoneyUnitOfWork,
        emitter: RealtimeEmitter,
        events: Events,
        charge_enabled: ChargeEnabled = _payouts_unknown,
    ) -> None:
        # Reads; every write goes in a unit of work of `money`, one per move.
        self.store = store
        self.money = money
        self.emitter = emitter
        # Posts' copies of their holds were written: told of each (`PostHoldMoved`).
        self.events = events
        self.charge_enabled = charge_enabled

    # Reading ------------------------------------------------------------------

    async def member_wallets(self, user_id: str) -> list[dict[str, Any]]:
        """The user's wallets, after crediting starter points once and today's point once."""
        await self.grant_points(user_id)
        wallets = wallets_in_order(await self.store.of_user(user_id))
        enabled = await self.charge_enabled(user_id)
        return [wallet_view(w, charge_enabled=enabled) for w in wallets]

    async def wallet_view(self, user_id: str, currency: str) -> dict[str, Any]:
        wallet = await self._open(user_id, currency)
        fresh = await self.store.get(wallet["_id"]) or wallet
        return wallet_view(fresh, charge_enabled=await self.charge_enabled(user_id))

    async def balance_cents(self, user_id: str, currency: str) -> int:
        """What is available: the wallet's money less what it holds for posts."""
        wallet = await self.store.get(wallet_id(user_id, currency))
        return wallet["balance"] - wallet.get("held", 0) if wallet else 0

    async def item_hold(self, user_id: str, currency: str, item_id: str) -> ItemHold | None:
        """A post's hold in its poster's wallet now; None when that wallet never held for it."""
        return await self.store.item_hold(wallet_id(user_id, currency), item_id)

    async def ledger(
        self,
        user_id: str,
        *,
        wallet_user_id: str,
        wallet_for: str,
        wallet_currency: str,
        before: int | None,
    ) -> dict[str, Any]:
        if wallet_user_id != user_id:
            raise Forbidden({"wallet_user_id": "You can only read your own wallets"})
        if wallet_for != WALLET_FOR_USER:
            raise InvalidInput({"wallet_for": f"Wallets are for '{WALLET_FOR_USER}'"})
        entries = await self.store.entries(
            wallet_id(user_id, wallet_currency), before, LEDGER_PAGE + 1
        )
        page = entries[:LEDGER_PAGE]
        has_more = len(entries) > LEDGER_PAGE
        return {
            "ledger_entries": [ledger_entry_view(e) for e in page],
            "has_more": has_more,
            "next_before": page[-1]["seq"] if has_more else None,
        }

    # Points -------------------------------------------------------------------

    async def grant_points(self, user_id: str) -> None:
        """Starter points once per member, then one point per day they come back.

        The flags on the wallet only save work: the ledger's unique refs ('welcome',
        'daily:{day}') are what make each credit happen once, whatever races.
        """
        now = now_ms()
        wallet = await self._open(user_id, CURRENCY_POINTS)
        day = points_day(now)
        owed: list[tuple[int, str, str, str]] = []  # units, ref type, ref id, title
        if not wallet.get("welcomed"):
            owed.append((STARTER_POINTS, LEDGER_REF_WELCOME, LEDGER_REF_WELCOME, "Welcome points"))
        if day is not None and wallet.get("daily") != day:
            owed.append(
                (DAILY_POINTS, LEDGER_REF_DAILY, f"{LEDGER_REF_DAILY}:{day}", "Daily point")
            )
        if not owed:
            return

        async def grant(money: MoneyStores) -> Entries:
            entries: Entries = {}
            for units, ref_type, ref_id, title in owed:
                posting = Posting(
                    wallet["_id"], user_id, CURRENCY_POINTS, units * CENTS_PER_UNIT, title
                )
                appended = await money.wallets.append(
                    posting, ref_type=ref_type, ref_id=ref_id, now=now, maybe_applied=True
                )
                if isinstance(appended, Appended):
                    entries[posting.wallet_id] = appended.entry
            await money.wallets.mark_granted(wallet["_id"], day)
            return entries

        await self._announce(await self.money.run(grant, contended=[wallet["_id"]]))

    # Moves --------------------------------------------------------------------

    async def transfer(
        self,
        *,
        key: str,
        ref_type: str,
        postings: list[Posting],
        details: dict[str, Any],
        along: Along | None = None,
    ) -> dict[str, Any]:
        """Runs the postings as one move, once per key: the first posting is the debit.
        `along`: writes that go with the move, in its unit of work, once it is through.

        Returns the move: state 'done', or 'refused' with `short_balance` when the payer is
        short (a refused move appended nothing, so a later retry with the key may succeed).
        """
        requested = move_terms(key, ref_type, postings, details)
        contended = [p.wallet_id for p in postings]

        async def first_attempt(money: MoneyStores) -> Moved:
            move = await money.wallets.start_move(requested, now_ms())
            return await self._drive(money, move, along, maybe_applied=False)

        try:
            moved = await self.money.run(first_attempt, contended=contended)
        except MoveKeyTaken:
            moved = await self._asked_again(requested, along, contended)
        await self._tell(moved)
        return moved.move

    async def _asked_again(
        self, requested: dict[str, Any], along: Along | None, contended: list[str]
    ) -> Moved:
        """A move whose key an earlier request took: its result, driven on if unfinished."""
        move = await self.store.move_with_key(requested["key"])
        # (Not None: moves are never deleted, so a key once taken stays taken.)
        if move is None or not same_terms(move, requested):
            # A retry must ask for what the first request did; anything else is a client
            # reusing an id, told so rather than handed the earlier move as if it were this.
            raise Conflict(
                {"request_id": "This request_id was already used for a different request"}
            )
        if move["state"] not in (PENDING, REFUSED):
            if along is not None:
                # Written again (they are idempotent): a sweep that finished the move left
                # them out where each write stands alone.
                await self.money.run(along)
            return Moved(move)

        async def drive_on(money: MoneyStores) -> Moved:
            # Read again in the unit: another retry may have finished it meanwhile.
            current = await money.wallets.get_move(move["_id"]) or move
            if current["state"] not in (PENDING, REFUSED):
                return Moved(current)
            return await self._drive(money, current, along, maybe_applied=True)

        return await self.money.run(drive_on, contended=contended)

    async def credit_external(
        self,
        *,
        key: str,
        user_id: str,
        currency: str,
        amount_cents: int,
        ref_type: str,
        ref_id: str,
        title: str,
        along: Along | None = None,
    ) -> dict[str, Any]:
        """Money arriving from outside (a card payment): credited once per key, with
        `along`'s writes (the payment's record) in the same unit of work."""
        posting = Posting(wallet_id(user_id, currency), user_id, currency, amount_cents, title)
        await self.transfer(
            key=key,
            ref_type=ref_type,
            postings=[posting],
            details={"external_ref": ref_id},
            along=along,
        )
        return await self.wallet_view(user_id, currency)

    async def begin_withdrawal(
        self, *, key: str, user_id: str, currency: str, amount_cents: int | None = None
    ) -> dict | None:
        """Takes `amount_cents` (None: the whole balance) out before paying it; None when
        there is nothing to take. More than the wallet holds is refused by the ledger's own
        conditional debit, so withdrawals at once cannot take the same money twice."""
        if currency == CURRENCY_POINTS:
            raise InvalidInput({"wallet_currency": "You cannot withdraw points"})
        if amount_cents is not None:
            move = await self._withdrawal(key, user_id, currency, amount_cents)
            if move["state"] != REFUSED:
                return move
            held = move["short_balance"]
            if held <= 0:
                return None
            raise InvalidInput(
                {"amount": f"You can withdraw at most {format_amount(held, currency)}"}
            )
        existing = await self.store.move_with_key(key)
        balance = 0 if existing else await self.balance_cents(user_id, currency)
        if balance <= 0:
            # Looked up again: a first attempt may have recorded the move and taken the
            # balance between the two reads above.
            existing = existing or await self.store.move_with_key(key)
            return existing if existing and existing["state"] != REFUSED else None
        move = await self._withdrawal(key, user_id, currency, balance)
        return None if move["state"] == REFUSED else move

    async def _withdrawal(self, key: str, user_id: str, currency: str, cents: int) -> dict:
        posting = Posting(wallet_id(user_id, currency), user_id, currency, -cents, "Withdrawal")
        # Paid out by the caller: the move stays 'paying' until it says how that went.
        details = {"amount_cents": cents, "currency": currency, "final_state": PAYING}
        return await self.transfer(
            key=key, ref_type=LEDGER_REF_WITHDRAW, postings=[posting], details=details
        )

    async def unpaid_withdrawals(
        self, user_id: str, currency: str, started_before: int
    ) -> list[dict[str, Any]]:
        return await self.store.moves_of(user_id, currency, PAYING, started_before)

    async def stalled_payouts(self, started_before: int) -> list[dict[str, Any]]:
        """Withdrawals of anyone debited before `started_before` and still not paid out."""
        return await self.store.stalled_moves(PAYING, started_before, RECOVERY_BATCH)

    async def finish_withdrawal(self, move_id: str, external_ref: str) -> dict[str, Any]:
        move = await self._move(move_id)
        await self.store.set_move_state(move_id, (PAYING,), DONE, {"external_ref": external_ref})
        return await self.wallet_view(move["user_id"], move["currency"])

    async def reverse_withdrawal(self, move_id: str, reason: str) -> dict[str, Any]:
        """The payout failed: the money comes back as a new entry, the old one stays."""
        move = await self._move(move_id)
        posting = Posting(
            wallet_id(move["user_id"], move["currency"]),
            move["user_id"],
            move["currency"],
            move["amount_cents"],
            "Withdrawal returned",
        )

        async def give_back(money: MoneyStores) -> Entries:
            appended = await money.wallets.append(
                posting,
                ref_type=LEDGER_REF_REVERSAL,
                ref_id=f"{move_id}:{LEDGER_REF_REVERSAL}",
                now=now_ms(),
                maybe_applied=True,
            )
            await money.wallets.set_move_state(
                move_id, (PAYING,), REVERSED, {"reason": reason[:500]}
            )
            return {posting.wallet_id: appended.entry} if isinstance(appended, Appended) else {}

        await self._announce(await self.money.run(give_back, contended=[posting.wallet_id]))
        return await self.wallet_view(move["user_id"], move["currency"])

    async def recover(self) -> int:
        """Drives moves an edge left half-done; returns how many it looked at. None are
        where a move's writes are stored together (a transaction): there is nothing to do.

        A refused move is driven on only if its debit went through after all (a retry
        that raced the refusal and then stopped), never just because money arrived since.
        """
        if await self.money.all_or_nothing():
            return 0
        now = now_ms()
        stalled = await self.store.stalled_moves(
            PENDING, now - MOVE_RECOVERY_AFTER_MS, RECOVERY_BATCH
        )
        refused = await self.store.refused_moves_to_recheck(
            now - MOVE_RECOVERY_AFTER_MS, RECOVERY_BATCH
        )
        for move in refused:
            debit = move["postings"][0]
            if await self.store.has_entry(debit["wallet_id"], move["_id"]):
                stalled.append(move)
        for move in stalled:
            moved = await self.money.run(
                lambda money, move=move: self._drive(money, move, None, maybe_applied=True)
            )
            await self._tell(moved)
        await self.store.mark_rechecked([m["_id"] for m in refused])
        return len(stalled)

    async def audit(self, wallet_ids: list[str] | None = None) -> list[str]:
        return await self.store.audit(wallet_ids)

    # Internals ----------------------------------------------------------------

    async def _drive(
        self,
        money: MoneyStores,
        move: dict[str, Any],
        along: Along | None,
        *,
        maybe_applied: bool,
    ) -> Moved:
        debit, *credits = [Posting.of(p) for p in move["postings"]]
        now = now_ms()

        async def apply(posting: Posting) -> Appended | Short:
            await money.wallets.ensure(
                posting.wallet_id, posting.user_id, posting.currency, WALLET_FOR_USER, now
            )
            return await money.wallets.append(
                posting,
                ref_type=move["ref_type"],
                ref_id=move["_id"],
                now=now,
                maybe_applied=maybe_applied,
            )

        first = await apply(debit)
        if isinstance(first, Short):
            # Only the first posting debits, so nothing was appended before it.
            refused = await money.wallets.set_move_state(
                move["_id"],
                (PENDING, REFUSED),
                REFUSED,
                {
                    "short_balance": first.balance,
                    "short_needed": first.needed,
                    "refused_at": now,
                    "rechecked": False,
                },
            )
            return Moved(refused or await money.wallets.get_move(move["_id"]) or move)
        # Credits cannot be refused and touch other wallets: where each write stands alone
        # they go together, so a move of many legs (an offer with finder's fees) waits about
        # as long as one of two.
        appended = [first, *await money.unit.each(apply(p) for p in credits)]
        entries = {
            entry.entry["wallet_id"]: entry.entry
            for entry in appended
            if isinstance(entry, Appended)
        }
        fields = {
            "state": move.get("final_state", DONE),
            "balances_after": [e["change_to"] for e in entries.values()],
            # What each wallet held after it and how the move changed that (a post's hold
            # drawn on by an offer): read back by a retry, which appends nothing.
            "held_after": [e.get("held_to", 0) for e in entries.values()],
            "held_diffs": [e.get("held_diff", 0) for e in entries.values()],
        }
        # What the move writes besides the ledger comes before it counts as finished: where
        # each write stands alone, a move an edge died in is driven again by the sweep.
        copied = await self._copy_holds(money, entries.values())
        if along is not None:
            await along(money)
        # Every posting is in the ledger, so the move is finished whoever records it: the
        # state change needs no answer (alone, it travels with other moves' in one command).
        await money.wallets.finish_move(move["_id"], (PENDING, REFUSED), fields)
        return Moved({**move, **fields}, entries, copied)

    async def _copy_holds(
        self, money: MoneyStores, entries: Iterable[LedgerEntry]
    ) -> list[LedgerEntry]:
        """Posts keep a copy of their holds for their readers: each entry that moved one
        writes it (unless a newer entry's is there). Returns the entries copied."""
        copied = []
        for entry in entries:
            if "item_hold" not in entry:
                continue
            hold = ItemHold.of(entry["item_hold"])
            holding = hold.held > 0 and not hold.ended
            if await money.holds.set(
                entry["item_id"], entry["currency"], entry["seq"], hold.fields(), holding
            ):
                copied.append(entry)
        return copied

    async def _tell(self, moved: Moved) -> None:
        """Once the move is stored: posts' holds and new balances to the owners' tabs."""
        for entry in moved.copied:
            await self.events.publish(
                PostHoldMoved(
                    item_id=entry["item_id"],
                    user_id=entry["user_id"],
                    currency=entry["currency"],
                    seq=entry["seq"],
                    hold=ItemHold.of(entry["item_hold"]),
                )
            )
        await self._announce(moved.entries)

    async def move(self, move_id: str) -> dict[str, Any] | None:
        return await self.store.get_move(move_id)

    async def offers_paid_in(self, cs_id: str) -> list[dict[str, Any]]:
        return await self.store.offers_paid_in(cs_id)

    async def _move(self, move_id: str) -> dict[str, Any]:
        move = await self.store.get_move(move_id)
        if move is None:
            raise InvalidInput({"move_id": "No such money move"})
        return move

    async def _open(self, user_id: str, currency: str) -> dict[str, Any]:
        return await self.store.open(
            wallet_id(user_id, currency), user_id, currency, WALLET_FOR_USER, now_ms()
        )

    async def payer_view(self, move: dict[str, Any]) -> dict[str, Any]:
        """The paying wallet as the finished move left it: a retry sees the first answer."""
        held_after = move.get("held_after") or [0]
        return await self.view_after(
            {
                **move["postings"][0],
                "change_to": move["balances_after"][0],
                "held_to": held_after[0],
            }
        )

    async def view_after(self, entry: LedgerEntry) -> dict[str, Any]:
        """The wallet as a ledger entry left it, without reading the wallet again."""
        wallet = {
            "_id": entry["wallet_id"],
            "user_id": entry["user_id"],
            "wallet_for": WALLET_FOR_USER,
            "currency": entry["currency"],
            "balance": entry["change_to"],
            "held": entry.get("held_to", 0),
        }
        enabled = entry["currency"] != CURRENCY_POINTS and await self.charge_enabled(
            entry["user_id"]
        )
        return wallet_view(wallet, charge_enabled=enabled)

    async def _announce(self, entries: Entries) -> None:
        """Pushes new balances to the owners' open tabs; a lost push is not lost money."""
        for entry in entries.values():
            try:
                view = await self.view_after(entry)
                await self.emitter.to_user(entry["user_id"], "wallet", {"wallet": view})
            except Exception:
                log.warning("could not announce a change of %s", entry["wallet_id"], exc_info=True)
