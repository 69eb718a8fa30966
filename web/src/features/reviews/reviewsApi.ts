import { api } from '../../shared/api';

export interface ReviewAuthor {
  _id: string;
  name: string;
  image: string;
}

/**
 * One side's review of the other after a paid offer (per offer, `move_id`). `private`: the offer was about a post in a
 * group the viewer may not read, so the review names no post or group and its text is withheld (null).
 */
export interface Review {
  _id: string;
  move_id: string;
  item_id: string | null;
  group_id: string | null;
  author: ReviewAuthor;
  subject_id: string;
  /** 1 to 5 stars. */
  rating: number;
  text: string | null;
  private: boolean;
  created_at: number;
  updated_at: number;
  /** Its author may change it until then. */
  editable_until: number;
  /** True only in the moderators' list: hidden reviews are left out everywhere else. */
  hidden: boolean;
}

/** The reviews of a person that are not hidden: how many, and their average (one decimal, null without any). */
export interface ReviewsSummary {
  count: number;
  average: number | null;
}

export interface ReviewDraft {
  rating: number;
  text: string;
}

export function createReview(moveId: string, draft: ReviewDraft): Promise<{ review: Review }> {
  return api.post<{ review: Review }>('/api/review', { move_id: moveId, ...draft }, { query: { action: 'create' } });
}

export function updateReview(reviewId: string, draft: ReviewDraft): Promise<{ review: Review }> {
  return api.post<{ review: Review }>('/api/review', { review_id: reviewId, ...draft }, { query: { action: 'update' } });
}

export function reportReview(reviewId: string, reason: string): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/api/review', { review_id: reviewId, reason }, { query: { action: 'report' } });
}

/** Hides a review, or shows it again: for the group's moderators but the review's two sides; answered as moderators see it. */
export function hideReview(reviewId: string, hidden: boolean): Promise<{ review: ReportedReview }> {
  return api.post<{ review: ReportedReview }>('/api/review', { review_id: reviewId, hidden }, { query: { action: 'hide' } });
}

export interface ReviewsPage extends ReviewsSummary {
  reviews: Review[];
  has_more: boolean;
  cursor: string | null;
}

/** A person's visible reviews, newest first; visitors may read them. */
export function fetchReviews(userId: string, cursor?: string): Promise<ReviewsPage> {
  return api.post<ReviewsPage>('/api/reviews', { user_id: userId, cursor });
}

/** What the chat after a paid offer needs: the other side, and both sides' reviews so far. */
export interface OfferReviews {
  move_id: string;
  item_id: string;
  subject: ReviewAuthor;
  review: Review | null;
  their_review: Review | null;
  can_review: boolean;
}

export function fetchOfferReviews(moveId: string, signal?: AbortSignal): Promise<OfferReviews> {
  return api.post<OfferReviews>('/api/reviews/offer', { move_id: moveId }, { signal });
}

/** An offer paid in an item chat, as `/api/reviews/chat` lists it (`amount` to the helper, fees not counted). */
export interface ChatOffer {
  move_id: string;
  amount: number;
  currency: string;
  at: number;
  /** The viewer wrote a review of it. */
  reviewed: boolean;
}

/** Every offer paid in the chat, oldest first; for its two sides only. */
export function fetchChatOffers(csId: string, signal?: AbortSignal): Promise<{ offers: ChatOffer[] }> {
  return api.post<{ offers: ChatOffer[] }>('/api/reviews/chat', { cs_id: csId }, { signal });
}

export interface ReviewReport {
  user_id: string;
  reason: string;
  at: number;
}

export interface ReportedReview extends Review {
  reports_count: number;
  reports: ReviewReport[];
  /** The moderator who hid it, or showed it again, last (null: nobody yet), and when. */
  hidden_by: ReviewAuthor | null;
  hidden_at: number | null;
}

export interface ReportedPage {
  reviews: ReportedReview[];
  /** The group's reported reviews no moderator hid yet (every page). */
  not_hidden_count: number;
  has_more: boolean;
  cursor: string | null;
}

/** The group's reported reviews, newest report first, hidden ones included: for its moderators. */
export function fetchReportedReviews(groupId: string, cursor?: string, signal?: AbortSignal): Promise<ReportedPage> {
  return api.post<ReportedPage>('/api/reviews/reported', { group_id: groupId, cursor }, { signal });
}
