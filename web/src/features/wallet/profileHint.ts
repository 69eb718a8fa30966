import { PROFILE_HINTS } from '../../shared/constants';
import type { Wallet } from '../../shared/entities/wallet';
import { canWithdraw } from './wallets';

/**
 * The banner /profile shows for the query params a payout onboarding returns with, if any.
 * Both speak of withdrawing money: true only for someone holding a wallet that can be withdrawn.
 */
export function profileHint(params: URLSearchParams, wallets: readonly Wallet[]): string | null {
  if (!wallets.some(canWithdraw)) return null;
  return PROFILE_HINTS.find(([param]) => params.has(param))?.[1] ?? null;
}
