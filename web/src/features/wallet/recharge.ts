import { CARD_CURRENCIES, RECHARGE_DEFAULT_AMOUNT, RECHARGE_DEFAULT_CURRENCY, RECHARGE_MAX_AMOUNT, RECHARGE_MIN_AMOUNT, RECHARGE_STATUS_POLL_MS, RECHARGE_STATUS_TIMEOUT_MS } from './constants';
import { describeError } from '../../shared/errors';
import type { Wallet } from '../../shared/entities/wallet';
import { outcomeUnknown, parseAmountText } from './wallets';

/** The amount the page starts with (the user may change it) and the wallet's currency. */
export type RechargeQuery = { amountText: string; currency: string } | { error: string };

/** The recharge page's amount and currency; each falls back to the spec's default when absent. */
export function parseRechargeQuery(params: URLSearchParams): RechargeQuery {
  const currency = (params.get('currency')?.trim() || RECHARGE_DEFAULT_CURRENCY).toUpperCase();
  if (!CARD_CURRENCIES.includes(currency)) return { error: `currency: cards can recharge ${CARD_CURRENCIES.join(', ')}` };
  return { amountText: params.get('amount')?.trim() || String(RECHARGE_DEFAULT_AMOUNT), currency };
}

export const RECHARGE_RANGE_TEXT = `Recharge between ${RECHARGE_MIN_AMOUNT} and ${RECHARGE_MAX_AMOUNT}`;

/** An amount to recharge as typed: within the server's bounds, in cents. */
export function parseRechargeAmount(text: string): { amount: number } | { error: string } {
  const parsed = parseAmountText(text);
  if ('error' in parsed) return parsed;
  if (parsed.amount < RECHARGE_MIN_AMOUNT || parsed.amount > RECHARGE_MAX_AMOUNT) return { error: RECHARGE_RANGE_TEXT };
  return parsed;
}

/** What a recharge was for, so that a failed one can be tried again. */
export interface RechargeOrder {
  amount: number;
  currency: string;
}

export type RechargeStatus =
  | { status: 'pending' }
  | { status: 'credited'; wallet: Wallet | null }
  | { status: 'failed'; message: string; order: RechargeOrder | null };

const FAILED_WITHOUT_MESSAGE = 'The payment did not go through.';

function orderIn(recharge: unknown): RechargeOrder | null {
  const { amount, currency } = (typeof recharge === 'object' && recharge !== null ? recharge : {}) as Record<string, unknown>;
  return typeof amount === 'number' && typeof currency === 'string' ? { amount, currency } : null;
}

/**
 * Reads GET /api/recharge/status: `{status: "pending" | "paid" | "failed", message,
 * wallet (when paid), recharge {amount, currency, ...}}`. Anything unrecognised counts as
 * pending, so polling carries on until the deadline rather than declaring a payment failed
 * that may still be credited.
 */
export function parseRechargeStatus(reply: unknown): RechargeStatus {
  const body = (typeof reply === 'object' && reply !== null ? reply : {}) as Record<string, unknown>;
  switch (body.status) {
    case 'paid':
      return { status: 'credited', wallet: typeof body.wallet === 'object' && body.wallet !== null ? (body.wallet as Wallet) : null };
    case 'failed':
      return {
        status: 'failed',
        message: typeof body.message === 'string' && body.message ? body.message : FAILED_WITHOUT_MESSAGE,
        order: orderIn(body.recharge),
      };
    default:
      return { status: 'pending' };
  }
}

/** How a card payment ended as far as the page can tell; `unconfirmed`: no answer before the deadline. */
export type PaymentOutcome =
  | { status: 'credited'; wallet: Wallet | null }
  | { status: 'failed'; message: string; order?: RechargeOrder | null }
  | { status: 'unconfirmed' };

export interface PollOptions {
  pollMs?: number;
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Stops polling; the promise then settles as `unconfirmed` without asking again. */
  signal?: AbortSignal;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Asks for the recharge's status until it is credited or failed, or the time is up. The
 * browser usually comes back before the provider's webhook has credited the wallet, so
 * `pending` and lost replies mean "ask again"; an error the server states is final.
 */
export async function waitForRecharge(fetchStatus: () => Promise<unknown>, options: PollOptions = {}): Promise<PaymentOutcome> {
  const { pollMs = RECHARGE_STATUS_POLL_MS, timeoutMs = RECHARGE_STATUS_TIMEOUT_MS, now = Date.now, sleep = sleepFor, signal } = options;
  const deadline = now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) return { status: 'unconfirmed' };
    try {
      const status = parseRechargeStatus(await fetchStatus());
      if (status.status !== 'pending') return status;
    } catch (error) {
      if (signal?.aborted) return { status: 'unconfirmed' };
      if (!outcomeUnknown(error)) return { status: 'failed', message: describeError(error).join(' ') };
    }
    if (now() + pollMs > deadline) return { status: 'unconfirmed' };
    await sleep(pollMs);
  }
}
