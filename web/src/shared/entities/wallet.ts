import { PATHS } from '../constants';
import { isApiError } from '../errors';

/** A member's balance in one currency for one purpose (the profile reply lists them, the wallet feature moves them). */
export interface Wallet {
  _id?: string;
  user_id: string;
  wallet_for: string;
  wallet_currency: string;
  /** Available: what may be spent or withdrawn now. */
  wallet_amount: number;
  /** Held for the rewards of the owner's open posts in this currency (not spendable until given back). */
  held_amount?: number;
  data?: { stripe_connected_account_charge_enabled?: boolean };
}

/** /recharge?amount=..&currency=.., where a short balance sends the user. */
export function rechargePath(amount: number, currency: string): string {
  return `${PATHS.recharge}?${new URLSearchParams({ amount: String(amount), currency })}`;
}

/** The spec's two answers to a short balance (a 402's `errors`): a card recharge of the shortfall, or the server's words for points. */
export type ShortBalance = { kind: 'need_stripe_recharge'; amount: number; currency: string } | { kind: 'need_recharge'; message: string };

/** The short balance a failed money request reports (a give offer, a held reward), or null for any other failure. */
export function shortBalanceOf(error: unknown): ShortBalance | null {
  const errors = isApiError(error) ? error.errors : error;
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return null;
  const fields = errors as Record<string, unknown>;
  const stripe = fields.need_stripe_recharge as { amount?: unknown; currency?: unknown } | undefined;
  if (stripe && typeof stripe.amount === 'number' && typeof stripe.currency === 'string') {
    return { kind: 'need_stripe_recharge', amount: stripe.amount, currency: stripe.currency };
  }
  if (typeof fields.need_recharge === 'string') return { kind: 'need_recharge', message: fields.need_recharge };
  return null;
}
