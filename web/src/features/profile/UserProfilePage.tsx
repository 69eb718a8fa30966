import { Link, useParams } from 'react-router';
import { PATHS } from '../../shared/constants';
import { isApiError } from '../../shared/errors';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { useCurrentUser } from '../../shared/session/currentUser';
import { Avatar } from '../../shared/ui/Avatar';
import { Button, buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { ReviewsSection, ReviewsSummaryLine } from '../reviews';
import { fetchPublicProfile } from './profileApi';
import { RewardsSummary } from './RewardsSummary';

/** /u/:userId: what anyone may know of a poster before working for them: rewards paid and held, and reviews. */
export function UserProfilePage() {
  const { userId = '' } = useParams();
  const { user: viewer, status } = useCurrentUser();
  const profile = useAsyncData(userId, (signal) => fetchPublicProfile(userId, signal));
  const known = status === 'ready' || status === 'error';
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-6 sm:py-10">
      {profile.status === 'loading' && <Loading />}
      {profile.status === 'error' &&
        (isApiError(profile.error) && profile.error.status === 404 ? (
          <EmptyState icon="🔎" title="This person does not exist" />
        ) : (
          <EmptyState icon="⚠️" title="Could not load this profile">
            <Button variant="secondary" onClick={profile.reload}>
              Try again
            </Button>
          </EmptyState>
        ))}
      {profile.status === 'success' && (
        <>
          <section className="flex flex-col items-center gap-4 rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:flex-row sm:p-8 sm:text-left">
            <Avatar name={profile.data.user.name} image={profile.data.user.image} size={72} />
            <div className="min-w-0 flex-1">
              <h1 className="truncate text-2xl font-bold tracking-tight">{profile.data.user.name}</h1>
              <ReviewsSummaryLine summary={profile.data.reviews_summary} />
            </div>
            {viewer?._id === userId && (
              <Link to={PATHS.profile} className={buttonClass('secondary', 'sm')}>
                Your profile
              </Link>
            )}
          </section>
          <section aria-labelledby="rewards-heading" className="space-y-4">
            <h2 id="rewards-heading" className="text-lg font-bold tracking-tight">
              Rewards
            </h2>
            <RewardsSummary rewards={profile.data.rewards} own={false} />
          </section>
          {known && <ReviewsSection userId={userId} viewerId={viewer?._id ?? null} />}
        </>
      )}
    </div>
  );
}
