import { formatMoney } from '../../shared/currency';
import type { Wallet } from '../../shared/entities/wallet';

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
