import { useState } from 'react';
import type { SessionBarProps } from '../../shared/chat/kinds';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import { Button } from '../../shared/ui/Button';
import { ProfileLink } from '../../shared/ui/ProfileLink';
import { formatMoney } from '../../shared/currency';
import { relativeTime } from '../../shared/relativeTime';
import { earlierToReview, reviewableOffer, isEditable } from './reviews';
import { fetchChatOffers, fetchOfferReviews, type OfferReviews, type Review } from './reviewsApi';
import { ReviewDialog } from './ReviewDialog';
import { Stars } from './Stars';

/** Under an item chat's header once an offer was paid there: each side reviews the other, once, and may change it for a week. */
export function ReviewBar({ session, meId }: SessionBarProps) {
  const offer = reviewableOffer(session, meId);
  if (!offer) return null;
  return <OfferReviewBar key={offer.moveId} csId={session._id} moveId={offer.moveId} />;
}

function OfferReviewBar({ csId, moveId }: { csId: string; moveId: string }) {
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
  // Their name leads to their profile: the reviews others wrote of them.
  const them = <ProfileLink userId={subject._id}>{firstName}</ProfileLink>;

  return (
    <div data-testid="review-bar" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 bg-violet-50/60 px-3 py-2 text-sm">
      {mine ? (
        <p className="text-slate-700">
          Your review of {them}: <Stars rating={mine.rating} />
        </p>
      ) : (
        <p className="text-slate-700">Paid. How was it with {them}?</p>
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
      <EarlierOffers csId={csId} latestMoveId={moveId} subjectName={subject.name} />
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

interface EarlierOffersProps {
  csId: string;
  latestMoveId: string;
  subjectName: string;
}

/** One small button per earlier paid offer of the chat the viewer has not reviewed: each offer is reviewed on its own. */
function EarlierOffers({ csId, latestMoveId, subjectName }: EarlierOffersProps) {
  const listed = useAsyncData(`${csId}:${latestMoveId}`, (signal) => fetchChatOffers(csId, signal));
  const [reviewedHere, setReviewedHere] = useState<ReadonlySet<string>>(new Set());
  const [writing, setWriting] = useState<string | null>(null);
  if (listed.status !== 'success') return null;
  const offers = earlierToReview(listed.data.offers, latestMoveId, reviewedHere);
  if (offers.length === 0) return null;
  return (
    <div data-testid="earlier-offers" className="flex basis-full flex-wrap items-center gap-x-2 gap-y-1">
      <span className="text-slate-600">Earlier offers:</span>
      {offers.map((offer) => (
        <Button key={offer.move_id} size="sm" variant="secondary" onClick={() => setWriting(offer.move_id)}>
          Review {formatMoney(offer.amount, offer.currency)}, {relativeTime(offer.at)}
        </Button>
      ))}
      {writing && (
        <ReviewDialog
          subjectName={subjectName}
          moveId={writing}
          review={null}
          onSaved={() => {
            setReviewedHere((done) => new Set([...done, writing]));
            setWriting(null);
          }}
          onClose={() => setWriting(null)}
        />
      )}
    </div>
  );
}
