import { PROFILE_HINTS } from './constants';
import type { Wallet } from '../../shared/entities/wallet';
import { hasMoneyToWithdraw } from './wallets';

/**
 * The banner /profile shows for the query params a payout onboarding returns with, if any.
 * Both speak of withdrawing money: true only while a wallet that can be withdrawn holds some
 * (not to someone holding only points, nor after the money was withdrawn).
 */
export function profileHint(params: URLSearchParams, wallets: readonly Wallet[]): string | null {
  if (!wallets.some(hasMoneyToWithdraw)) return null;
  return PROFILE_HINTS.find(([param]) => params.has(param))?.[1] ?? null;
}
