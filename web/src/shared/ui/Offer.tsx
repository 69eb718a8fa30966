import { formatMoney } from '../currency';
import type { Item } from '../entities/item';
import { postFinderFee } from '../entities/finderFee';
import { rewardBadges, type RewardBadge } from '../entities/reward';

/** The reward: an amount in its currency, else the offer's description. */
export function Offer({ item, className = '' }: { item: Item; className?: string }) {
  if (item.offer_amount != null && item.offer_currency) {
    return <span className={`font-semibold text-emerald-700 ${className}`}>{formatMoney(item.offer_amount, item.offer_currency)}</span>;
  }
  if (item.offer_description) return <span className={`text-slate-700 ${className}`}>{item.offer_description}</span>;
  return null;
}

export function TagList({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600">
          #{tag}
        </li>
      ))}
    </ul>
  );
}

/** The finder's fee the post pays its sharers and how often it was shared. */
export function ShareBadges({ item }: { item: Item }) {
  const fee = postFinderFee(item);
  const shares = item.share_count ?? 0;
  if (fee === null && shares === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5 text-xs font-medium" aria-label="Sharing">
      {fee !== null && item.offer_currency && (
        <li data-testid="finder-fee-badge" className="rounded-full bg-amber-100 px-2.5 py-0.5 text-amber-900">
          {formatMoney(fee, item.offer_currency)} finder&apos;s fee
        </li>
      )}
      {shares > 0 && (
        <li data-testid="share-count" className="rounded-full bg-sky-100 px-2.5 py-0.5 text-sky-900">
          {shares === 1 ? '1 share' : `${shares} shares`}
        </li>
      )}
    </ul>
  );
}

const BADGE_LOOK: Record<RewardBadge['kind'], string> = {
  held: 'bg-emerald-100 text-emerald-900',
  paid: 'bg-violet-100 text-violet-900',
  released: 'bg-slate-100 text-slate-700',
  not_held: 'bg-slate-100 text-slate-700',
};

/** Whether the reward is held, paid, given back or not held at all (shared/entities/reward.ts). */
export function RewardBadges({ item }: { item: Item }) {
  const badges = rewardBadges(item);
  if (badges.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5 text-xs font-medium" aria-label="Reward">
      {badges.map((badge) => (
        <li key={badge.kind} data-testid={`reward-${badge.kind}`} className={`rounded-full px-2.5 py-0.5 ${BADGE_LOOK[badge.kind]}`}>
          {badge.text}
        </li>
      ))}
    </ul>
  );
}
