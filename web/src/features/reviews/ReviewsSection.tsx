import { useCallback, useState } from 'react';
import { REVIEW_REPORT_REASON_MAX } from './constants';
import { appendNewById, useCursorPages } from '../../shared/hooks/useCursorPages';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Avatar } from '../../shared/ui/Avatar';
import { Button } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Modal } from '../../shared/ui/Modal';
import { Field, inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { summaryText } from './reviews';
import { fetchReviews, reportReview, type Review, type ReviewsSummary } from './reviewsApi';
import { isEmptyList, ListFooter } from './ListFooter';
import { ReviewBody } from './Stars';

/** "★ 4.5 from 12 reviews": beside a person's name. */
export function ReviewsSummaryLine({ summary }: { summary: ReviewsSummary }) {
  return (
    <p data-testid="reviews-summary" className="text-sm text-slate-700">
      {summary.average !== null && summary.count > 0 && <span aria-hidden="true" className="mr-1 text-amber-600">★</span>}
      {summaryText(summary)}
    </p>
  );
}

/** A person's reviews, newest first, a page at a time; signed-in readers other than the author may report one. */
export function ReviewsSection({ userId, viewerId }: { userId: string; viewerId: string | null }) {
  const fetchPage = useCallback(
    (cursor?: string) => fetchReviews(userId, cursor).then((page) => ({ items: page.reviews, cursor: page.cursor, hasMore: page.has_more })),
    [userId],
  );
  const reviews = useCursorPages(userId, fetchPage, appendNewById);
  const [reporting, setReporting] = useState<Review | null>(null);

  return (
    <section aria-labelledby="reviews-heading" className="space-y-4">
      <h2 id="reviews-heading" className="text-lg font-bold tracking-tight">
        Reviews
      </h2>
      {isEmptyList(reviews) && (
        <EmptyState icon="⭐" title="No reviews yet" description="After a paid offer, the poster and the helper can review each other." />
      )}
      <ul className="space-y-3">
        {reviews.items.map((review) => (
          <li key={review._id} data-testid="review" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <div className="flex items-start gap-3">
              <Avatar name={review.author.name} image={review.author.image} size={36} />
              <div className="min-w-0 flex-1">
                <ReviewBody review={review} />
              </div>
              {viewerId !== null && viewerId !== review.author._id && (
                <Button variant="ghost" size="sm" onClick={() => setReporting(review)} aria-label={`Report the review by ${review.author.name}`}>
                  Report
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ListFooter pages={reviews} moreLabel="More reviews" />
      {reporting && <ReportDialog review={reporting} onClose={() => setReporting(null)} />}
    </section>
  );
}

/** Reports a review to the moderators of the group where the offer was paid, with an optional reason. */
function ReportDialog({ review, onClose }: { review: Review; onClose: () => void }) {
  const ui = useUi();
  const [reason, setReason] = useState('');
  const send = useAsyncAction(async () => {
    try {
      await reportReview(review._id, reason.trim());
      ui.toast("Reported. The group's moderators will take a look.");
      onClose();
    } catch (error) {
      ui.showError(error);
    }
  });
  return (
    <Modal title="Report this review?" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send.run();
        }}
        className="space-y-4"
      >
        <p className="text-sm text-slate-600">The moderators of the group where the offer was paid can hide it.</p>
        <Field id="report-reason" label="Why (optional)">
          <textarea
            id="report-reason"
            rows={2}
            maxLength={REVIEW_REPORT_REASON_MAX}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            className={`${inputClass} h-auto py-2`}
          />
        </Field>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={send.busy}>
            Report
          </Button>
        </div>
      </form>
    </Modal>
  );
}
