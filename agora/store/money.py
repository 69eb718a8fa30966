"""What a money move writes, in one unit of work (`unit_of_work.py`): the wallets' ledger
entries and heads, the move's record, the copies posts keep of their held rewards, and a card
recharge's record."""

from dataclasses import dataclass

from pymongo.asynchronous.database import AsyncDatabase

from agora.settings import MongoTransactions
from agora.store.items import HoldCopies
from agora.store.payments import Recharges
from agora.store.unit_of_work import Unit, UnitOfWork
from agora.store.wallets import WalletStore


@dataclass(frozen=True)
class MoneyStores:
    """The stores of one attempt of a money move, bound to its unit."""

    unit: Unit
    wallets: WalletStore
    holds: HoldCopies
    recharges: Recharges


MoneyUnitOfWork = UnitOfWork[MoneyStores]


def money_unit_of_work(
    db: AsyncDatabase,
    transactions: MongoTransactions,
    *,
    wallets: WalletStore,
    holds: HoldCopies,
    recharges: Recharges,
) -> MoneyUnitOfWork:
    def bind(unit: Unit) -> MoneyStores:
        return MoneyStores(unit, wallets.bound(unit), holds.bound(unit), recharges.bound(unit))

    return UnitOfWork(db.client, bind, transactions)
