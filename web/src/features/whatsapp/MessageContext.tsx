import { WA_FORWARDED_MANY_TEXT, WA_FORWARDED_TEXT } from '../../shared/constants';
import type { WaContext, WaReferral } from './whatsappApi';

/** Above a message: "Forwarded", and the message it answers (its text, when that message is loaded). */
export function MessageContext({ context, quoted }: { context: WaContext | undefined; quoted: string | null }) {
  const forwarded = context?.frequently_forwarded ? WA_FORWARDED_MANY_TEXT : context?.forwarded ? WA_FORWARDED_TEXT : null;
  return (
    <>
      {forwarded && <p className="mb-0.5 text-xs text-slate-600 italic">↪ {forwarded}</p>}
      {quoted !== null && (
        <blockquote aria-label="Reply to" className="mb-1 line-clamp-3 rounded-md border-l-4 border-brand-500 bg-black/5 px-2 py-1 text-sm text-slate-700">
          {quoted || 'An earlier message'}
        </blockquote>
      )}
    </>
  );
}

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
