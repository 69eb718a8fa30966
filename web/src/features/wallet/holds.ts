import { formatMoney } from '../../shared/currency';
import type { Wallet } from '../../shared/entities/wallet';
import { formatLedgerDiff } from './ledger';
import type { LedgerEntry } from './walletApi';

/** The server's `reward_released` socket event: a post's held reward went back to its poster. */
export interface RewardReleased {
  item_id: string;
  title: string;
  amount: number;
  currency: string;
  reason: 'closed' | 'deleted' | 'expired';
}

/** "Reward released: 'Walk my dog' expired. 🪙 34 is back in your wallet." */
export function releasedNoticeText(event: RewardReleased): string {
  return `Reward released: '${event.title}' ${event.reason}. ${formatMoney(event.amount, event.currency)} is back in your wallet.`;
}

export function isRewardReleased(value: unknown): value is RewardReleased {
  const event = value as Partial<RewardReleased> | null;
  return typeof event?.title === 'string' && typeof event.amount === 'number' && typeof event.currency === 'string' && typeof event.reason === 'string';
}

/** What the wallet holds for its owner's posts; 0 for wallets from before holds. */
export function heldOf(wallet: Pick<Wallet, 'held_amount'>): number {
  return wallet.held_amount ?? 0;
}

/** "held +🪙 44" for an entry that moved the held part (a hold, a release, an offer paid from it), else null. */
export function heldChangeText(entry: Pick<LedgerEntry, 'held_diff'>, currency: string): string | null {
  if (!entry.held_diff) return null;
  return `held ${formatLedgerDiff(entry.held_diff, currency)}`;
}
