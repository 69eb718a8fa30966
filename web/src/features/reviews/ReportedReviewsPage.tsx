import { useCallback } from 'react';
import { Link, useParams } from 'react-router';
import { groupPath } from '../../shared/constants';
import { isApiError } from '../../shared/errors';
import { appendNewById, useCursorPages } from '../../shared/hooks/useCursorPages';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { relativeTime } from '../../shared/relativeTime';
import { RequireUser } from '../../shared/session/RequireUser';
import { Button } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { useUi } from '../../shared/ui/uiContext';
import { fetchReportedReviews, hideReview, type ReportedReview } from './reviewsApi';
import { isEmptyList, ListFooter } from './ListFooter';
import { ReviewBody } from './Stars';

/** /group/:groupId/reviews: the reviews people reported in the group, for its moderators to hide or show again. */
export function ReportedReviewsPage() {
  const { groupId = '' } = useParams();
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-6 sm:py-10">
      <div>
        <Link to={groupPath(groupId)} className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to the group
        </Link>
        <h1 className="mt-1 text-2xl font-bold tracking-tight">Reported reviews</h1>
      </div>
      <RequireUser>{(user) => <Reported key={`${groupId}/${user._id}`} groupId={groupId} viewerId={user._id} />}</RequireUser>
    </div>
  );
}

function Reported({ groupId, viewerId }: { groupId: string; viewerId: string }) {
  const fetchPage = useCallback(
    (cursor?: string) => fetchReportedReviews(groupId, cursor).then((page) => ({ items: page.reviews, cursor: page.cursor, hasMore: page.has_more })),
    [groupId],
  );
  const reported = useCursorPages(groupId, fetchPage, appendNewById);
  const replace = (changed: ReportedReview) =>
    reported.setItems((items) => items.map((item) => (item._id === changed._id ? changed : item)));

  if (reported.error !== null && isApiError(reported.error) && reported.error.status === 403) {
    return <EmptyState icon="🔒" title="Only the group's moderators can see reported reviews" />;
  }
  return (
    <>
      {isEmptyList(reported) && (
        <EmptyState icon="✅" title="Nothing reported" description="Reviews people report in this group show here." />
      )}
      <ul className="space-y-3">
        {reported.items.map((review) => (
          <ReportedRow key={review._id} review={review} viewerId={viewerId} onChanged={replace} />
        ))}
      </ul>
      <ListFooter pages={reported} moreLabel="More" />
    </>
  );
}

/** One reported review; a moderator it is about leaves it to the others. */
function ReportedRow({ review, viewerId, onChanged }: { review: ReportedReview; viewerId: string; onChanged: (review: ReportedReview) => void }) {
  const ui = useUi();
  const toggle = useAsyncAction(async () => {
    try {
      const { review: changed } = await hideReview(review._id, !review.hidden);
      onChanged({ ...review, hidden: changed.hidden, hidden_by: changed.hidden_by, hidden_at: changed.hidden_at });
      ui.toast(changed.hidden ? 'Review hidden' : 'Review shown again');
    } catch (error) {
      ui.showError(error);
    }
  });
  const reasons = review.reports.map((report) => report.reason).filter(Boolean);
  return (
    <li data-testid="reported-review" className={`rounded-2xl p-4 shadow-sm ring-1 ${review.hidden ? 'bg-slate-50 ring-slate-200' : 'bg-white ring-slate-200'}`}>
      <ReviewBody review={review}>
        {review.hidden && <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">Hidden</span>}
      </ReviewBody>
      <p className="mt-2 text-xs text-slate-600">
        Reported {review.reports_count === 1 ? 'once' : `${review.reports_count} times`}
        {reasons.length > 0 && `: ${reasons.map((reason) => `“${reason}”`).join(', ')}`}
      </p>
      {review.hidden_by && review.hidden_at !== null && (
        <p data-testid="hidden-by" className="mt-1 text-xs text-slate-600">
          {review.hidden ? 'Hidden' : 'Shown again'} by {review.hidden_by.name} {relativeTime(review.hidden_at)}
        </p>
      )}
      <div className="mt-3 flex justify-end">
        {viewerId === review.subject_id ? (
          <p className="text-sm text-slate-600">About you: another moderator decides.</p>
        ) : (
          <Button size="sm" variant={review.hidden ? 'secondary' : 'danger'} busy={toggle.busy} onClick={() => void toggle.run()}>
            {review.hidden ? 'Show again' : 'Hide review'}
          </Button>
        )}
      </div>
    </li>
  );
}
