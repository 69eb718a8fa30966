import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/constants';
import { isApiError } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Avatar } from '../../shared/ui/Avatar';
import { Button, buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { useUi } from '../../shared/ui/uiContext';
import { clearAuthKey } from '../../shared/session/authKey';
import { updateCurrentUser } from '../../shared/session/currentUser';
import { RequireUser } from '../../shared/session/RequireUser';
import type { User } from '../../shared/entities/user';
import { ItemCard } from '../../shared/ui/ItemCard';
import { feedPath } from '../../shared/rememberedGroup';
import { MailIcon, PhoneIcon } from '../../shared/ui/icons';
import { NotificationsControl } from '../push';
import { ReviewsSection, ReviewsSummaryLine, type ReviewsSummary } from '../reviews';
import { EarnedFromSharing, profileHint, RESUMED_WITHDRAWAL_PARAMS, resumedWithdrawal, useLiveWallets, WalletList } from '../wallet';
import { fetchProfile, fetchUserItems, logout } from './profileApi';
import { RewardsSummary } from './RewardsSummary';

const memberSince = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

export function ProfilePage() {
  return <RequireUser>{(user) => <Profile user={user} />}</RequireUser>;
}

function Profile({ user }: { user: User }) {
  const [params, setParams] = useSearchParams();
  const profile = useAsyncData(user._id, fetchProfile);
  const live = useLiveWallets(profile.status === 'success' ? profile.data.user_wallets : null);
  const hint = profileHint(params, live.wallets);
  // Back from the payout set-up with the withdrawal asked for: handed to its wallet once its
  // wallets are read (its Withdraw opens at the confirmation), and dropped from the address, so
  // a reload does not ask again.
  const [pending, setPending] = useState<URLSearchParams | null>(() => new URLSearchParams(params));
  const resumed = profile.status === 'success' && pending ? resumedWithdrawal(pending, live.wallets) : null;
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the wallet list takes `resumed` in the commit that shows it; dropped during the render instead, it would never reach the list
    if (resumed) setPending(null);
  }, [resumed]);
  useEffect(() => {
    if (!RESUMED_WITHDRAWAL_PARAMS.some((name) => params.has(name))) return;
    const next = new URLSearchParams(params);
    RESUMED_WITHDRAWAL_PARAMS.forEach((name) => next.delete(name));
    setParams(next, { replace: true });
  }, [params, setParams]);

  const freshUser = profile.status === 'success' ? profile.data.user : null;
  useEffect(() => {
    // The profile reply carries the freshest copy of the user; share it with the shell.
    if (freshUser) updateCurrentUser(() => freshUser);
  }, [freshUser]);

  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-6 sm:py-10">
      {hint && (
        <p role="status" className="rounded-2xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm font-medium text-brand-800">
          {hint}
        </p>
      )}

      <ProfileHeader user={user} reviews={profile.status === 'success' ? profile.data.reviews_summary : null} />

      <section aria-labelledby="notifications-heading" className="space-y-4">
        <h2 id="notifications-heading" className="text-lg font-bold tracking-tight">
          Notifications
        </h2>
        <NotificationsControl />
      </section>

      <section aria-labelledby="wallets-heading" className="space-y-4">
        <h2 id="wallets-heading" className="text-lg font-bold tracking-tight">
          Wallets
        </h2>
        {profile.status === 'loading' && <Loading height={96} />}
        {profile.status === 'success' && <WalletList wallets={live.wallets} onWallet={live.apply} resume={resumed} />}
        {profile.status === 'error' && (
          <EmptyState
            icon="⚠️"
            title="Could not load your wallets"
            description={isApiError(profile.error) && profile.error.status === 0 ? 'Check your connection.' : undefined}
          >
            <Button variant="secondary" onClick={profile.reload}>
              Try again
            </Button>
          </EmptyState>
        )}
      </section>

      {profile.status === 'success' && (
        <section aria-labelledby="rewards-heading" className="space-y-4">
          <h2 id="rewards-heading" className="text-lg font-bold tracking-tight">
            Rewards
          </h2>
          <RewardsSummary rewards={profile.data.rewards} own />
        </section>
      )}

      <EarnedFromSharing />

      <section aria-labelledby="items-heading" className="space-y-4">
        <h2 id="items-heading" className="text-lg font-bold tracking-tight">
          My Items
        </h2>
        <MyItems />
      </section>

      <ReviewsSection userId={user._id} viewerId={user._id} />
    </div>
  );
}

function MyItems() {
  const items = useAsyncData('my-items', fetchUserItems);
  if (items.status === 'loading') return <Loading height={96} />;
  if (items.status === 'error') {
    return (
      <EmptyState icon="⚠️" title="Could not load your posts">
        <Button variant="secondary" onClick={items.reload}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  if (items.data.items.length === 0) {
    return (
      <EmptyState icon="📝" title="No posts yet" description="Requests, products and services you post will be listed here.">
        <Link to={feedPath()} className={buttonClass('secondary')}>
          Go to your feed
        </Link>
      </EmptyState>
    );
  }
  return (
    <ul className="space-y-3">
      {items.data.items.map((item) => (
        <li key={item._id}>
          <ItemCard item={item} />
        </li>
      ))}
    </ul>
  );
}

function ProfileHeader({ user, reviews }: { user: User; reviews: ReviewsSummary | null }) {
  const ui = useUi();
  const signOut = useAsyncAction(async () => {
    try {
      await ui.blockWhile(logout(), 'Logging out..');
    } catch {
      // The local key goes regardless: the user asked to be logged out on this device.
    }
    clearAuthKey();
    ui.toast('You are logged out');
  });

  return (
    <section className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <div className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">
        <Avatar name={user.name} image={user.image} size={88} />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold tracking-tight">{user.name}</h1>
          <p className="mt-1 text-sm text-slate-500">Member since {memberSince.format(user.created_at)}</p>
          {reviews && <ReviewsSummaryLine summary={reviews} />}
          <ul className="mt-4 space-y-1.5 text-sm">
            <ContactLine icon={<PhoneIcon />} label="Phone" value={user.phone_number} />
            <ContactLine icon={<MailIcon />} label="E-mail" value={user.email_id} />
          </ul>
        </div>
      </div>
      <div className="mt-6 flex flex-col gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:justify-end">
        <Link to={PATHS.editProfile} className={buttonClass('secondary')}>
          Edit profile
        </Link>
        <Button variant="danger" busy={signOut.busy} onClick={() => void signOut.run()}>
          Logout
        </Button>
      </div>
    </section>
  );
}

function ContactLine({ icon, label, value }: { icon: ReactNode; label: string; value: string | null }) {
  return (
    <li className="flex min-w-0 items-center justify-center gap-2 sm:justify-start">
      <span className="shrink-0 text-slate-500" title={label}>
        {icon}
        <span className="sr-only">{label}</span>
      </span>
      <span className={`truncate ${value ? 'font-medium text-slate-800' : 'text-slate-500'}`}>{value ?? 'Not added'}</span>
    </li>
  );
}
