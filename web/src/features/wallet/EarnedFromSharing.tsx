import { Link } from 'react-router';
import { routePath } from '../../shared/constants';
import { formatMoney } from '../../shared/currency';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { relativeTime } from '../../shared/relativeTime';
import { fetchEarnedFees } from './walletApi';

/** The profile's 'Earned from sharing': finder's fees paid to this member, each with its post. */
export function EarnedFromSharing() {
  const earned = useAsyncData('earned', (signal) => fetchEarnedFees(signal));
  return (
    <section aria-labelledby="earned-heading" className="space-y-3">
      <h2 id="earned-heading" className="text-lg font-bold tracking-tight">
        Earned from sharing
      </h2>
      {earned.status === 'success' && earned.data.finder_fees.length === 0 && (
        <p className="text-sm text-slate-600">Share a post with a finder&apos;s fee: when the deal comes through your link, your part shows here.</p>
      )}
      {earned.status === 'success' && earned.data.finder_fees.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          {earned.data.finder_fees.map((fee) => (
            <li key={fee.move_id} data-testid="earned-fee" className="flex items-center gap-3 px-4 py-3 text-sm">
              {fee.route_id ? (
                <Link to={routePath(fee.route_id)} className="line-clamp-2 min-w-0 font-medium break-words text-brand-700 hover:underline">
                  {fee.title}
                </Link>
              ) : (
                <span className="line-clamp-2 min-w-0 font-medium break-words">{fee.title}</span>
              )}
              <time dateTime={new Date(fee.created_at).toISOString()} className="shrink-0 text-xs text-slate-500">
                {relativeTime(fee.created_at)}
              </time>
              <span className="ml-auto shrink-0 font-semibold text-emerald-700 tabular-nums">+{formatMoney(fee.amount, fee.currency)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
