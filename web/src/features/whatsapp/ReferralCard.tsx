import type { WaReferral } from './whatsappApi';

/** The ad (or post) the customer tapped to start writing. */
export function ReferralCard({ referral }: { referral: WaReferral }) {
  const label = referral.source_type === 'post' ? 'From a post' : 'From an ad';
  return (
    <aside aria-label={label} data-testid="wa-referral" className="mb-1 rounded-md bg-black/5 px-2 py-1 text-sm">
      <p className="text-xs font-semibold text-slate-600">{label}</p>
      {referral.headline && <p className="font-semibold">{referral.headline}</p>}
      {referral.body && <p className="text-slate-700">{referral.body}</p>}
      {referral.source_url && (
        <a href={referral.source_url} target="_blank" rel="noopener noreferrer" className="text-xs break-all underline">
          {referral.source_url}
        </a>
      )}
    </aside>
  );
}
