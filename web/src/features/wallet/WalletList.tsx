import { useState } from 'react';
import { Link } from 'react-router';
import { CANNOT_WITHDRAW_POINTS_TEXT, CARD_CURRENCIES, NOTHING_TO_WITHDRAW_TEXT, RECHARGE_DEFAULT_AMOUNT, RECHARGE_DEFAULT_CURRENCY, RECHARGE_TEXT } from './constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { controlClass } from '../../shared/ui/TextField';
import type { Wallet } from '../../shared/entities/wallet';
import { heldOf } from './holds';
import { LedgerDialog } from './LedgerDialog';
import { rechargePath } from '../../shared/entities/wallet';
import { canRecharge, canWithdraw, hasMoneyToWithdraw, isPointsWallet, walletKey } from './wallets';
import type { resumedWithdrawal } from './withdraw';
import { WithdrawButton } from './WithdrawButton';

interface WalletListProps {
  wallets: readonly Wallet[];
  /** A wallet the server changed (a withdrawal's reply). */
  onWallet: (wallet: Wallet) => void;
  /** A withdrawal the payout set-up interrupted (`resumedWithdrawal`), to go on with. */
  resume?: ReturnType<typeof resumedWithdrawal>;
}

/** The profile's wallets; each opens its Transaction History, money can be withdrawn and card currencies recharged. */
export function WalletList({ wallets, onWallet, resume }: WalletListProps) {
  const [ledgerKey, setLedgerKey] = useState<string | null>(null);
  // Looked up on every render so the open ledger follows live balance changes.
  const ledgerWallet = wallets.find((wallet) => walletKey(wallet) === ledgerKey);

  // No wallet in a card currency (only points, or none yet): money starts with a first recharge.
  const firstRecharge = !wallets.some(canRecharge) && <FirstRecharge />;
  if (wallets.length === 0) {
    return (
      <>
        <EmptyState
          icon="👛"
          title="No wallets yet"
          description="Coins you receive and rewards you earn for sharing posts will show up here."
        />
        {firstRecharge}
      </>
    );
  }
  return (
    <>
      <ul className="grid gap-3 sm:grid-cols-2">
        {wallets.map((wallet) => {
          const isPoints = isPointsWallet(wallet);
          return (
            <li key={walletKey(wallet)} data-testid="wallet" className="rounded-2xl bg-white p-2 shadow-sm ring-1 ring-slate-200">
              <button
                type="button"
                onClick={() => setLedgerKey(walletKey(wallet))}
                className="flex w-full min-w-0 items-center gap-4 rounded-xl p-2 text-left hover:bg-slate-50"
              >
                <span
                  aria-hidden="true"
                  className={`flex size-11 shrink-0 items-center justify-center rounded-xl text-xs font-bold uppercase ${isPoints ? 'bg-amber-50 text-amber-800' : 'bg-brand-50 text-brand-800'}`}
                >
                  {isPoints ? 'pts' : wallet.wallet_currency}
                </span>
                <span className="min-w-0">
                  <span className="flex items-baseline gap-1.5">
                    <span className="text-lg font-bold tracking-tight tabular-nums">{formatMoney(wallet.wallet_amount, wallet.wallet_currency)}</span>
                    <span className="text-xs font-medium text-slate-600">available</span>
                  </span>
                  <span className="block truncate text-sm text-slate-600">{currencyName(wallet.wallet_currency)}</span>
                  {heldOf(wallet) > 0 && (
                    <span data-testid="wallet-held" className="mt-1 inline-block rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 tabular-nums">
                      {formatMoney(heldOf(wallet), wallet.wallet_currency)} held for your posts
                    </span>
                  )}
                </span>
                <span className="ml-auto shrink-0 text-xs font-medium text-slate-600">History</span>
              </button>
              <WalletActions wallet={wallet} onWallet={onWallet} resume={resume?.currency === wallet.wallet_currency ? resume : undefined} />
            </li>
          );
        })}
      </ul>
      {firstRecharge}
      {ledgerWallet && <LedgerDialog wallet={ledgerWallet} onClose={() => setLedgerKey(null)} />}
    </>
  );
}

/** Someone holding only points: rewards in money start with a card recharge, in a currency they choose. */
function FirstRecharge() {
  const [currency, setCurrency] = useState(RECHARGE_DEFAULT_CURRENCY);
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <p className="text-sm text-slate-700">To offer rewards in money, add some by card.</p>
      <div className="flex items-center gap-2">
        <select
          aria-label="Recharge currency"
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
          className={`${controlClass} py-1.5 text-sm`}
        >
          {CARD_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {currencyName(code)}
            </option>
          ))}
        </select>
        <RechargeLink currency={currency} />
      </div>
    </div>
  );
}

function RechargeLink({ currency }: { currency: string }) {
  return (
    <Link
      to={rechargePath(RECHARGE_DEFAULT_AMOUNT, currency)}
      aria-label={`${RECHARGE_TEXT} ${currencyName(currency)}`}
      className={buttonClass('secondary', 'sm')}
    >
      {RECHARGE_TEXT}
    </Link>
  );
}

/** Withdraw and Recharge under a wallet; a wallet that cannot be withdrawn from says why. */
function WalletActions({ wallet, onWallet, resume }: { wallet: Wallet; onWallet: WalletListProps['onWallet']; resume?: WalletListProps['resume'] }) {
  const rechargeable = canRecharge(wallet);
  const why = !canWithdraw(wallet) ? CANNOT_WITHDRAW_POINTS_TEXT : !hasMoneyToWithdraw(wallet) ? NOTHING_TO_WITHDRAW_TEXT : null;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-100 px-2 pt-2 pb-1">
      {why ? <p className="mr-auto text-sm text-slate-600">{why}</p> : <WithdrawButton wallet={wallet} onWallet={onWallet} resume={resume ?? undefined} />}
      {rechargeable && <RechargeLink currency={wallet.wallet_currency} />}
    </div>
  );
}
