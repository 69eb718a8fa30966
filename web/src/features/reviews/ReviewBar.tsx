import { useState } from 'react';
import type { SessionBarProps } from '../../shared/chat/kinds';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import { Button } from '../../shared/ui/Button';
import { reviewableOffer, isEditable } from './reviews';
import { fetchOfferReviews, type OfferReviews, type Review } from './reviewsApi';
import { ReviewDialog } from './ReviewDialog';
import { Stars } from './Stars';

/** Under an item chat's header once an offer was paid there: each side reviews the other, once, and may change it for a week. */
export function ReviewBar({ session, meId }: SessionBarProps) {
  const offer = reviewableOffer(session, meId);
  if (!offer) return null;
  return <OfferReviewBar key={offer.moveId} moveId={offer.moveId} />;
}

function OfferReviewBar({ moveId }: { moveId: string }) {
  const loaded = useAsyncData(moveId, (signal) => fetchOfferReviews(moveId, signal));
  // The review this screen just saved, over the loaded copy.
  const [saved, setSaved] = useState<OfferReviews['review']>(null);
  // The other side's review as the server announces it (`review`, sent to the person reviewed).
  const [heard, setHeard] = useState<Review | null>(null);
  const [writing, setWriting] = useState(false);
  useSocketEvent<{ review?: Review }>('review', (event) => {
    if (event?.review?.move_id === moveId) setHeard(event.review);
  });
  if (loaded.status !== 'success') return null;
  const { subject } = loaded.data;
  const theirs = heard ?? loaded.data.their_review;
  const mine = saved ?? loaded.data.review;
  const firstName = subject.name.split(' ')[0] || subject.name;

  return (
    <div data-testid="review-bar" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 bg-violet-50/60 px-3 py-2 text-sm">
      {mine ? (
        <p className="text-slate-700">
          Your review of {firstName}: <Stars rating={mine.rating} />
        </p>
      ) : (
        <p className="text-slate-700">Paid. How was it with {firstName}?</p>
      )}
      {(!mine || isEditable(mine)) && (
        <Button size="sm" variant={mine ? 'secondary' : 'primary'} onClick={() => setWriting(true)}>
          {mine ? 'Change review' : `Review ${firstName}`}
        </Button>
      )}
      {theirs && (
        <p data-testid="their-review" className="basis-full text-slate-600">
          {firstName} gave you <Stars rating={theirs.rating} />
          {theirs.text && <span className="italic"> “{theirs.text}”</span>}
        </p>
      )}
      {writing && (
        <ReviewDialog
          subjectName={subject.name}
          moveId={moveId}
          review={mine}
          onSaved={(review) => {
            setSaved(review);
            setWriting(false);
          }}
          onClose={() => setWriting(false)}
        />
      )}
    </div>
  );
}
