import { POINTS_CURRENCY } from '../../shared/constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { EmptyState } from '../../shared/ui/EmptyState';
import type { Wallet } from './profileApi';

export function WalletList({ wallets }: { wallets: readonly Wallet[] }) {
  if (wallets.length === 0) {
    return (
      <EmptyState
        icon="👛"
        title="No wallets yet"
        description="Coins you receive and rewards you earn for sharing posts will show up here."
      />
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {wallets.map((wallet) => {
        const isPoints = wallet.wallet_currency.toUpperCase() === POINTS_CURRENCY;
        return (
          <li
            key={`${wallet.wallet_for}:${wallet.wallet_currency}`}
            className="flex items-center gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
          >
            <span
              aria-hidden="true"
              className={`flex size-11 shrink-0 items-center justify-center rounded-xl text-xs font-bold uppercase ${isPoints ? 'bg-amber-50 text-amber-700' : 'bg-brand-50 text-brand-700'}`}
            >
              {isPoints ? 'pts' : wallet.wallet_currency}
            </span>
            <div className="min-w-0">
              <p className="text-lg font-bold tracking-tight tabular-nums">
                {formatMoney(wallet.wallet_amount, wallet.wallet_currency)}
              </p>
              <p className="truncate text-sm text-slate-500">{currencyName(wallet.wallet_currency)}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
