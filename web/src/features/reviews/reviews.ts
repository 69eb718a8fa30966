import { ITEM_CHAT_PREFIX } from '../../shared/constants';
import { REVIEW_RATING_ERROR, REVIEW_RATING_MAX, REVIEW_RATING_MIN, REVIEW_TEXT_ERROR, REVIEW_TEXT_MAX } from './constants';
import type { ChatOffer, Review, ReviewDraft, ReviewsSummary } from './reviewsApi';

/** Why the draft cannot be saved, by field, or null: the server refuses the same with the same words. */
export function reviewDraftErrors(draft: ReviewDraft): { rating?: string; text?: string } | null {
  const errors: { rating?: string; text?: string } = {};
  if (!Number.isInteger(draft.rating) || draft.rating < REVIEW_RATING_MIN || draft.rating > REVIEW_RATING_MAX) errors.rating = REVIEW_RATING_ERROR;
  if (draft.text.trim().length > REVIEW_TEXT_MAX) errors.text = REVIEW_TEXT_ERROR;
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Its author may still change it. */
export function isEditable(review: Pick<Review, 'editable_until'>, now = Date.now()): boolean {
  return now < review.editable_until;
}

/** "4.5 from 12 reviews", "5 from 1 review", "No reviews yet". */
export function summaryText({ count, average }: ReviewsSummary): string {
  if (count === 0 || average === null) return 'No reviews yet';
  return `${average.toFixed(1).replace(/\.0$/, '')} from ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/** "4 out of 5 stars", for screen readers beside the drawn stars. */
export function starsLabel(rating: number): string {
  return `${rating} out of ${REVIEW_RATING_MAX} stars`;
}

/** What an item chat tells of its latest paid offer: `data.last_offer` and its two sides. */
export interface PaidOfferChat {
  _id: string;
  data: { owner_id?: string; user_id?: string; last_offer?: unknown };
}

/**
 * The paid offer the viewer may review in this chat, or null: a chat with a paid offer
 * (`data.last_offer.move_id`) seen by one of its two sides, the poster who paid or the helper
 * who was paid. Sharers paid a fee are not sides.
 */
export function reviewableOffer(session: PaidOfferChat, meId: string | null): { moveId: string } | null {
  const offer = session.data.last_offer as { move_id?: unknown } | undefined;
  if (!meId || typeof offer?.move_id !== 'string' || !session._id.startsWith(ITEM_CHAT_PREFIX)) return null;
  if (meId !== session.data.owner_id && meId !== session.data.user_id) return null;
  return { moveId: offer.move_id };
}

/**
 * The chat's earlier paid offers the viewer has not reviewed, oldest first: the latest one has
 * the bar's own line, and those reviewed on this screen since the list was read are done too.
 */
export function earlierToReview(offers: ChatOffer[], latestMoveId: string, reviewedHere: ReadonlySet<string>): ChatOffer[] {
  return offers.filter((offer) => !offer.reviewed && offer.move_id !== latestMoveId && !reviewedHere.has(offer.move_id));
}
