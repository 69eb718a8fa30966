import { formatMoney } from '../../shared/currency';
import type { Rewards } from './profileApi';

/** What a poster's word is worth: the rewards they paid, and those held for their open posts now. */
export function RewardsSummary({ rewards, own }: { rewards: Rewards; own: boolean }) {
  const paid = rewards.paid.map((line) => `${formatMoney(line.amount, line.currency)} in ${line.count === 1 ? '1 offer' : `${line.count} offers`}`);
  const held = rewards.held.map((line) => formatMoney(line.amount, line.currency));
  return (
    <dl data-testid="rewards-summary" className="grid gap-3 sm:grid-cols-2">
      <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <dt className="text-sm font-medium text-slate-600">Rewards paid</dt>
        <dd className="mt-1 font-semibold text-slate-900">{paid.length > 0 ? paid.join(' · ') : 'None yet'}</dd>
      </div>
      <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <dt className="text-sm font-medium text-slate-600">{own ? 'Held for your posts' : 'Held for open posts'}</dt>
        <dd className="mt-1 font-semibold text-slate-900">{held.length > 0 ? held.join(' · ') : 'Nothing held now'}</dd>
      </div>
    </dl>
  );
}
