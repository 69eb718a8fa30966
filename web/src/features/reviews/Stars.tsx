import type { ReactNode } from 'react';
import { REVIEW_RATING_MAX } from './constants';
import { relativeTime } from '../../shared/relativeTime';
import { ProfileLink } from '../../shared/ui/ProfileLink';
import { starsLabel } from './reviews';
import type { Review } from './reviewsApi';

const STEPS = Array.from({ length: REVIEW_RATING_MAX }, (_, index) => index + 1);

/** A rating drawn as stars, read out as "4 out of 5 stars". */
export function Stars({ rating, className = '' }: { rating: number; className?: string }) {
  return (
    <span role="img" aria-label={starsLabel(rating)} className={`tracking-tight text-amber-600 ${className}`}>
      {STEPS.map((step) => (step <= rating ? '★' : '☆')).join('')}
    </span>
  );
}

/** Five stars to choose from: a radio group, so arrows and a screen reader work as they do for any choice. */
export function StarPicker({ value, onChange, invalid }: { value: number; onChange: (rating: number) => void; invalid?: boolean }) {
  return (
    <div role="radiogroup" aria-label="Stars" aria-invalid={invalid || undefined} className="flex gap-1">
      {STEPS.map((step) => (
        <button
          key={step}
          type="button"
          role="radio"
          aria-checked={value === step}
          aria-label={starsLabel(step)}
          onClick={() => onChange(step)}
          className={`flex size-11 items-center justify-center rounded-xl text-3xl leading-none ${step <= value ? 'text-amber-600' : 'text-slate-400'} hover:bg-amber-50`}
        >
          {step <= value ? '★' : '☆'}
        </button>
      ))}
    </div>
  );
}

/** A review as lists show it: who wrote it, the stars, when, and the text (withheld after an offer in a private group); `children` add to the headline. */
export function ReviewBody({ review, children }: { review: Review; children?: ReactNode }) {
  return (
    <>
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <ProfileLink userId={review.author._id}>{review.author.name}</ProfileLink>
        <Stars rating={review.rating} />
        <time dateTime={new Date(review.created_at).toISOString()} className="text-xs text-slate-500">
          {relativeTime(review.created_at)}
        </time>
        {children}
      </p>
      {review.private ? (
        <p className="mt-1 text-sm text-slate-500 italic">Written after an offer in a private group: only its members can read it.</p>
      ) : (
        review.text && <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-700">{review.text}</p>
      )}
    </>
  );
}
