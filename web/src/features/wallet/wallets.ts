import { CARD_CURRENCIES } from './constants';
import { POINTS_CURRENCY } from '../../shared/constants';
import { isApiError } from '../../shared/errors';
import type { Wallet } from '../../shared/entities/wallet';

export function isPointsWallet(wallet: Pick<Wallet, 'wallet_currency'>): boolean {
  return wallet.wallet_currency.toUpperCase() === POINTS_CURRENCY;
}

/** Money can be paid out; points cannot. */
export function canWithdraw(wallet: Pick<Wallet, 'wallet_currency'>): boolean {
  return !isPointsWallet(wallet);
}

/** A money wallet holding something: what Withdraw and the payout banners are for. */
export function hasMoneyToWithdraw(wallet: Pick<Wallet, 'wallet_currency' | 'wallet_amount'>): boolean {
  return canWithdraw(wallet) && wallet.wallet_amount > 0;
}

export function canRecharge(wallet: Pick<Wallet, 'wallet_currency'>): boolean {
  return CARD_CURRENCIES.includes(wallet.wallet_currency.toUpperCase());
}

/** A user has one wallet per purpose and currency. */
export function walletKey(wallet: Pick<Wallet, 'wallet_for' | 'wallet_currency'>): string {
  return `${wallet.wallet_for}:${wallet.wallet_currency}`;
}

/** Points first, then currencies alphabetically: the order the server lists them in. */
function byDisplayOrder(a: Wallet, b: Wallet): number {
  const pointsFirst = Number(isPointsWallet(b)) - Number(isPointsWallet(a));
  return pointsFirst || a.wallet_currency.localeCompare(b.wallet_currency);
}

/** The list with `changed` in place of its older copy, or added when it is a new wallet. */
export function upsertWallet(wallets: readonly Wallet[], changed: Wallet): Wallet[] {
  const key = walletKey(changed);
  const others = wallets.filter((wallet) => walletKey(wallet) !== key);
  return [...others, changed].sort(byDisplayOrder);
}

/**
 * Whether a failed money request may still have been applied: no reply (status 0) or a
 * server failure. Such a request is retried with the same request_id, so the server can
 * answer the retry with the first result instead of moving the money twice.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return error.status === 0 || error.status >= 500;
}

const AMOUNT_TEXT = /^\d+(\.\d{1,2})?$/;
export const INVALID_AMOUNT_TEXT = 'Enter a number above 0 with at most 2 decimals';

/** An amount typed or put in a link: a positive number with at most 2 decimals (the server keeps cents). */
export function parseAmountText(text: string): { amount: number } | { error: string } {
  const trimmed = text.trim().replace(',', '.');
  const amount = Number(trimmed);
  if (!AMOUNT_TEXT.test(trimmed) || amount <= 0) return { error: INVALID_AMOUNT_TEXT };
  return { amount };
}
