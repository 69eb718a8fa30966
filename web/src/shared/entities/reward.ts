import { formatMoney } from '../currency';
import type { Item } from './item';

type RewardFields = Pick<
  Item,
  'offer_amount' | 'offer_currency' | 'offer_description' | 'reward_status' | 'reward_held' | 'reward_paid' | 'reward_paid_count' | 'expires_at' | 'closed_at' | 'closed_reason'
>;

/** A badge of a post's reward: what a card and the post page show beside the amount. */
export interface RewardBadge {
  kind: 'held' | 'paid' | 'not_held' | 'released';
  text: string;
}

/**
 * What people can count on: "Reward held 🪙 44" while the server holds it, "Paid 🪙 40" once an
 * offer was paid (both while some is still held), "Reward given back" once released, and
 * "Not held" for a reward in words (or from before holds), so that nobody takes it for a held one.
 */
export function rewardBadges(item: RewardFields): RewardBadge[] {
  const currency = item.offer_currency ?? '';
  const badges: RewardBadge[] = [];
  // A closed post is giving its hold back (the server releases right after closing): not "held".
  if (item.reward_status === 'held' && (item.reward_held ?? 0) > 0 && item.closed_at == null) {
    badges.push({ kind: 'held', text: `Reward held ${formatMoney(item.reward_held ?? 0, currency)}` });
  }
  const paidCount = item.reward_paid_count ?? 0;
  if (paidCount > 0) {
    const paid = formatMoney(item.reward_paid ?? 0, currency);
    badges.push({ kind: 'paid', text: paidCount === 1 ? `Paid ${paid}` : `Paid ${paid} in ${paidCount} offers` });
  }
  if (item.reward_status === 'released' && paidCount === 0) badges.push({ kind: 'released', text: 'Reward given back' });
  const hasReward = item.offer_amount != null || Boolean(item.offer_description);
  if (item.reward_status === 'not_held' && hasReward) badges.push({ kind: 'not_held', text: 'Not held' });
  return badges;
}

/** Open until its expiry, or closed by its poster, or expired; null for posts from before expiry. */
export type PostLifetime = { state: 'open'; until: number } | { state: 'closed' | 'expired'; at: number } | null;

export function postLifetime(item: RewardFields): PostLifetime {
  if (item.closed_at != null) return { state: item.closed_reason === 'expired' ? 'expired' : 'closed', at: item.closed_at };
  if (item.expires_at != null) return { state: 'open', until: item.expires_at };
  return null;
}

const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });

/** "Open until Dec 28, 2026", "Closed on Dec 3, 2026", "Expired on Dec 28, 2026". */
export function lifetimeText(lifetime: NonNullable<PostLifetime>): string {
  if (lifetime.state === 'open') return `Open until ${dayFormat.format(lifetime.until)}`;
  return `${lifetime.state === 'closed' ? 'Closed' : 'Expired'} on ${dayFormat.format(lifetime.at)}`;
}

/** "Closed" or "Expired" for a card's mark, null while the post is open. */
export function closedMark(item: RewardFields): 'Closed' | 'Expired' | null {
  const lifetime = postLifetime(item);
  if (lifetime === null || lifetime.state === 'open') return null;
  return lifetime.state === 'closed' ? 'Closed' : 'Expired';
}

/** A post that no longer takes new helpers (closed or expired). */
export function isClosed(item: Pick<Item, 'closed_at'>): boolean {
  return item.closed_at != null;
}
