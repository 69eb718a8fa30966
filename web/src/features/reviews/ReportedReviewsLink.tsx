import { Link } from 'react-router';
import { groupReviewsPath } from '../../shared/constants';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { buttonClass } from '../../shared/ui/Button';
import { fetchReportedReviews } from './reviewsApi';

/** The moderators' way to the group's reported reviews, with how many still wait for a look (reported, not hidden). */
export function ReportedReviewsLink({ groupId }: { groupId: string }) {
  const reported = useAsyncData(groupId, (signal) => fetchReportedReviews(groupId, undefined, signal));
  const waiting = reported.status === 'success' ? reported.data.not_hidden_count : 0;
  return (
    <Link to={groupReviewsPath(groupId)} className={buttonClass('secondary', 'sm')}>
      Reported reviews
      {waiting > 0 && (
        <span data-testid="reported-count" className="ml-1.5 rounded-full bg-red-700 px-1.5 text-xs font-semibold text-white">
          {waiting}
          <span className="sr-only"> not hidden</span>
        </span>
      )}
    </Link>
  );
}
