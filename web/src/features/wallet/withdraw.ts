import { formatMoney } from '../../shared/currency';
import type { Wallet } from '../../shared/entities/wallet';
import { hasMoneyToWithdraw } from './wallets';

/** The amount field's first text: all the wallet holds, as one types it ("30", "12.50"). */
export function wholeBalanceText(wallet: Pick<Wallet, 'wallet_amount'>): string {
  const amount = wallet.wallet_amount;
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
}

/** Why an amount cannot be withdrawn from the wallet (more than it holds), or null. */
export function withdrawalRefusal(amount: number, wallet: Pick<Wallet, 'wallet_amount' | 'wallet_currency'>): string | null {
  return amount > wallet.wallet_amount ? `You can withdraw at most ${formatMoney(wallet.wallet_amount, wallet.wallet_currency)}` : null;
}

/** What the wallet keeps after withdrawing `amount`, counted in cents (10.3 - 0.3 is 10, not 10.000000000000002). */
export function leftAfter(wallet: Pick<Wallet, 'wallet_amount'>, amount: number): number {
  return (Math.round(wallet.wallet_amount * 100) - Math.round(amount * 100)) / 100;
}

/** The query params a payout set-up comes back to /profile with (the server's `withdrawal_query`). */
export const RESUMED_WITHDRAWAL_PARAMS = ['withdraw_currency', 'withdraw_amount'] as const;

/**
 * The withdrawal a payout set-up interrupted, as it came back to /profile: the wallet's currency
 * and the amount asked for, or null for the amount when none came (the whole balance was asked
 * for) or it is no longer there to take; null when nothing is to be resumed.
 */
export function resumedWithdrawal(params: URLSearchParams, wallets: readonly Wallet[]): { currency: string; amount: number | null } | null {
  const currency = params.get('withdraw_currency');
  const wallet = wallets.find((entry) => entry.wallet_currency === currency && hasMoneyToWithdraw(entry));
  if (!currency || !wallet) return null;
  const amount = Number(params.get('withdraw_amount') ?? Number.NaN);
  const takeable = Number.isFinite(amount) && amount > 0 && withdrawalRefusal(amount, wallet) === null;
  return { currency, amount: takeable ? amount : null };
}
