import { data, redirect, type RouteObject } from 'react-router';
import { PATHS, groupFeedPath } from '../shared/constants';
import { Loading } from '../shared/ui/Loading';
import { ChatsPage } from '../features/chat';
import { ErrorPage } from '../features/errors';
import { rememberedGroupId } from '../shared/rememberedGroup';
import { importPart } from '../shared/staleBuild';
import { FeedPage } from '../features/feed';
import { CreateGroupPage, GroupPage, GroupSettingsPage } from '../features/group';
import { ItemPage, PostFormPage } from '../features/item';
import { LandingPage } from '../features/landing';
import { EditProfilePage, ProfilePage, UserProfilePage } from '../features/profile';
import { loadReportedReviewsPage } from '../features/reviews';
import { loadAfterPaymentPage, loadRechargePage } from '../features/wallet';
import { loadChannelPage } from '../features/whatsapp';
import type { RouteHandle } from './routeHandle';
import { Shell } from './Shell';

function homeRedirect() {
  const groupId = rememberedGroupId();
  return redirect(groupId ? groupFeedPath(groupId) : PATHS.landing);
}

function notFound(): never {
  throw data(null, { status: 404, statusText: 'Not Found' });
}

/**
 * The app's one route table. Pages render inside the shell; the inner error boundary
 * keeps the header and menu around an error so the user can navigate away.
 */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <ErrorPage />,
    // Shown for the instant the first page's loader runs (the home redirect, not-found).
    hydrateFallbackElement: <Loading />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          // These two loaders always redirect or throw; the explicit null element says so.
          { path: PATHS.home, loader: homeRedirect, element: null },
          { path: PATHS.landing, element: <LandingPage />, handle: { menuClosedByDefault: true } satisfies RouteHandle },
          { path: PATHS.profile, element: <ProfilePage /> },
          { path: PATHS.editProfile, element: <EditProfilePage /> },
          { path: PATHS.userProfile, element: <UserProfilePage /> },
          // The city picker carries Leaflet, the heaviest library here: it loads on demand.
          { path: PATHS.selectCity, lazy: async () => ({ Component: await importPart(async () => (await import('../features/city')).SelectCityPage) }) },
          { path: PATHS.chats, element: <ChatsPage /> },
          { path: PATHS.groupFeed, element: <FeedPage /> },
          { path: PATHS.feed, element: <FeedPage /> },
          { path: PATHS.group, element: <GroupPage /> },
          { path: PATHS.groupSettings, element: <GroupSettingsPage /> },
          // Moderators only, and rarely: loads on demand.
          { path: PATHS.groupReviews, lazy: async () => ({ Component: await loadReportedReviewsPage() }) },
          { path: PATHS.createGroup, element: <CreateGroupPage /> },
          // Admins only, and rarely: the WhatsApp connection loads on demand.
          { path: PATHS.groupWhatsapp, lazy: async () => ({ Component: await loadChannelPage() }) },
          { path: PATHS.createItem, element: <PostFormPage /> },
          { path: PATHS.editItem, element: <PostFormPage /> },
          { path: PATHS.route, element: <ItemPage /> },
          // Card payments are rare visits: their pages load on demand.
          { path: PATHS.recharge, lazy: async () => ({ Component: await loadRechargePage() }) },
          { path: PATHS.afterPayment, lazy: async () => ({ Component: await loadAfterPaymentPage() }) },
          { path: '*', loader: notFound, element: null },
        ],
      },
    ],
  },
];
