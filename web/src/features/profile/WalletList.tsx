import { useState } from 'react';
import { currencyName, formatMoney } from '../../shared/currency';
import { EmptyState } from '../../shared/ui/EmptyState';
import { LedgerDialog } from '../wallet/LedgerDialog';
import type { Wallet } from '../wallet/walletApi';
import { isPointsWallet, walletKey } from '../wallet/wallets';
import { WithdrawButton } from '../wallet/WithdrawButton';

interface WalletListProps {
  wallets: readonly Wallet[];
  /** A wallet the server changed (a withdrawal's reply). */
  onWallet: (wallet: Wallet) => void;
}

/** The profile's wallets; each opens its Transaction History, and money (not points) can be withdrawn. */
export function WalletList({ wallets, onWallet }: WalletListProps) {
  const [ledgerKey, setLedgerKey] = useState<string | null>(null);
  // Looked up on every render so the open ledger follows live balance changes.
  const ledgerWallet = wallets.find((wallet) => walletKey(wallet) === ledgerKey);

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
    <>
      <ul className="grid gap-3 sm:grid-cols-2">
        {wallets.map((wallet) => {
          const isPoints = isPointsWallet(wallet);
          return (
            <li
              key={walletKey(wallet)}
              data-testid="wallet"
              className="flex items-center gap-3 rounded-2xl bg-white p-2 pr-4 shadow-sm ring-1 ring-slate-200"
            >
              <button
                type="button"
                onClick={() => setLedgerKey(walletKey(wallet))}
                className="flex min-w-0 flex-1 items-center gap-4 rounded-xl p-2 text-left hover:bg-slate-50"
              >
                <span
                  aria-hidden="true"
                  className={`flex size-11 shrink-0 items-center justify-center rounded-xl text-xs font-bold uppercase ${isPoints ? 'bg-amber-50 text-amber-700' : 'bg-brand-50 text-brand-700'}`}
                >
                  {isPoints ? 'pts' : wallet.wallet_currency}
                </span>
                <span className="min-w-0">
                  <span className="block text-lg font-bold tracking-tight tabular-nums">
                    {formatMoney(wallet.wallet_amount, wallet.wallet_currency)}
                  </span>
                  <span className="block truncate text-sm text-slate-500">{currencyName(wallet.wallet_currency)}</span>
                </span>
              </button>
              {!isPoints && <WithdrawButton wallet={wallet} onWallet={onWallet} />}
            </li>
          );
        })}
      </ul>
      {ledgerWallet && <LedgerDialog wallet={ledgerWallet} onClose={() => setLedgerKey(null)} />}
    </>
  );
}
