"""Units of work: the writes of one money move, all of them or none, where the store allows.

On a MongoDB replica set (or through mongos) a unit is one transaction of one client session,
run by PyMongo's `with_transaction`: on `TransientTransactionError` (a write conflict with a
concurrent unit, a primary stepping down) the whole unit runs again after a growing pause, on
`UnknownTransactionCommitResult` the commit is sent again, for up to two minutes; any other
error, and cancellation, aborts it. A unit is therefore a callback (`run(work)`), not a block:
a block (`async with`) cannot be run a second time. Each attempt gets its stores bound afresh
(`InUnit.bound`), and what must wait for the commit (heads this edge remembers, the
announcements of changed posts) waits for it (`Unit.after_commit`).

A server without transactions gets each write of a unit on its own (`Unit` without a session):
a standalone MongoDB, and nx-27017 (development and tests), whose transactions are one SQLite
transaction on the connection every client shares: other clients' writes join it and its abort
takes them back, two at once break each other, and one left open by a process that died keeps
every later write of everyone uncommitted (docs/decisions.md, "Money in one unit of work").
There the money moves' own record and the sweep finish a move an edge left half-way
(`WalletService.recover`). `AGORA_MONGO_TRANSACTIONS=on` runs transactions on nx-27017 all the
same, one at a time from this process: right only while this process is the only writer, as in
the tests that prove the units.
"""

import asyncio
import copy
import inspect
from collections.abc import Awaitable, Callable, Iterable
from enum import Enum
from typing import Any, Generic, Self, TypeVar

from pymongo import AsyncMongoClient
from pymongo.asynchronous.client_session import AsyncClientSession
from pymongo.asynchronous.collection import AsyncCollection

from agora.settings import MongoTransactions
from agora.tools.background import Turns

T = TypeVar("T")
S = TypeVar("S")

AfterCommit = Callable[[], Awaitable[None] | None]


class Unit:
    """One attempt of a unit of work, as the stores bound to it see it: the session their
    commands go in (None: each write stands alone) and what waits for the commit."""

    def __init__(self, session: AsyncClientSession | None) -> None:
        self.session = session
        self._after: list[AfterCommit] = []

    async def after_commit(self, action: AfterCommit) -> None:
        """Runs `action` once the unit's writes are stored: at once where each write stands
        alone, after the commit in a transaction (not at all when it aborts)."""
        if self.session is None:
            await _call(action)
        else:
            self._after.append(action)

    async def each(self, calls: Iterable[Awaitable[T]]) -> list[T]:
        """The calls' results: run together where each write stands alone, one after another
        in a transaction (a session carries one command at a time)."""
        if self.session is None:
            return list(await asyncio.gather(*calls))
        return [await call for call in calls]

    async def committed(self) -> None:
        for action in self._after:
            await _call(action)


async def _call(action: AfterCommit) -> None:
    result = action()
    if inspect.isawaitable(result):
        await result


# Writes outside any unit of work: each stands alone.
ALONE = Unit(None)


class InUnit:
    """A store whose writes may join a unit of work: `bound(unit)` is a copy of it whose
    commands go in the unit's session. Unbound, it writes alone (`ALONE`)."""

    unit: Unit = ALONE

    def bound(self, unit: Unit) -> Self:
        bound = copy.copy(self)
        bound.unit = unit
        return bound

    @property
    def session(self) -> AsyncClientSession | None:
        return self.unit.session


class SessionWrites:
    """What `BatchedWrites` does, for a unit in a transaction: each write sent at once in the
    unit's session (a batch shared with other callers cannot join one transaction)."""

    def __init__(self, collection: AsyncCollection, session: AsyncClientSession) -> None:
        self.collection = collection
        self.session = session

    async def insert(self, doc: dict[str, Any]) -> None:
        await self.collection.insert_one(doc, session=self.session)

    async def update(self, query: dict[str, Any], change: dict[str, Any]) -> None:
        await self.collection.update_one(query, change, session=self.session)


class Mode(Enum):
    ALONE = "each write alone"
    TRANSACTIONS = "transactions"
    # nx-27017: one transaction at a time from this process (see the module's text).
    ONE_AT_A_TIME = "transactions one at a time"


# One for the process: nx-27017 breaks two transactions at once, whoever runs them.
_ONE_AT_A_TIME = Turns()
EVERY_UNIT = "every unit"


class UnitOfWork(Generic[S]):
    """Runs units of work: `await uow.run(work)` calls `work` with the stores `bind` makes for
    one attempt, and stores all it wrote or nothing (where the server has transactions)."""

    def __init__(
        self,
        client: AsyncMongoClient,
        bind: Callable[[Unit], S],
        transactions: MongoTransactions = "auto",
    ) -> None:
        self.client = client
        self.bind = bind
        self.transactions = transactions
        self._mode: Mode | None = None
        self._turns = Turns()

    async def all_or_nothing(self) -> bool:
        """Whether a unit's writes are stored together (a transaction) or each on its own."""
        return await self._decided() is not Mode.ALONE

    async def run(self, work: Callable[[S], Awaitable[T]], *, contended: Iterable[str] = ()) -> T:
        """`work`'s result once all it wrote is stored. `contended`: keys (wallets) that this
        edge's units take turns on for the whole unit, so two of its units on one wallet
        wait for each other rather than conflict and run again."""
        mode = await self._decided()
        if mode is Mode.ALONE:
            return await work(self.bind(ALONE))
        if mode is Mode.ONE_AT_A_TIME:
            turns, keys = _ONE_AT_A_TIME, [EVERY_UNIT]
        else:
            turns, keys = self._turns, list(contended)
        async with turns.take(keys):
            return await self._in_transaction(work)

    async def _in_transaction(self, work: Callable[[S], Awaitable[T]]) -> T:
        attempts: list[Unit] = []

        async def attempt(session: AsyncClientSession) -> T:
            attempts.append(Unit(session))
            return await work(self.bind(attempts[-1]))

        async with self.client.start_session() as session:
            result = await session.with_transaction(attempt)
        # Only the attempt that committed stored anything.
        await attempts[-1].committed()
        return result

    async def _decided(self) -> Mode:
        if self._mode is None:
            self._mode = await self._mode_of_server()
        return self._mode

    async def _mode_of_server(self) -> Mode:
        if self.transactions == "off":
            return Mode.ALONE
        hello = await self.client.admin.command("hello")
        # A replica set member names its set; mongos says it is one. nx-27017 says neither.
        if "setName" in hello or hello.get("msg") == "isdbgrid":
            return Mode.TRANSACTIONS
        return Mode.ONE_AT_A_TIME if self.transactions == "on" else Mode.ALONE
