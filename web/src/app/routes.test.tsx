import { render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply } from '../test/fetchMock';

const ada = {
  _id: 'u1',
  name: 'Ada Lovelace',
  image: '',
  phone_number: '+31612345678',
  email_id: 'ada@example.com',
  data: { notifications_unseen_count: 2 },
  created_at: Date.UTC(2024, 2, 1),
};

const item = { _id: 'i1', group_id: 'amsterdam', user_id: 'u2', route_id: 'r1', created_at: Date.now(), updated_at: 0, sort_order: 1 };
/** A profile's rewards and reviews when there are none (`/api/user/profile` adds them to the wallets). */
const noRewards = { rewards: { held: [], paid: [] }, reviews_summary: { count: 0, average: null } };
const noReviews: FakeReply = { body: { reviews: [], count: 0, average: null, has_more: false, cursor: null } };
const feedReply = {
  group: { _id: 'amsterdam', title: 'Amsterdam', can_write: false, data: { tags: ['bikes'], num_posts: 2, num_members: 1 } },
  items: [
    { ...item, need_user_to_view: false, title: 'Fix my bike', description: 'Flat tyre', offer_amount: 40, offer_currency: 'POINTS', tags: [] },
    { ...item, _id: 'i2', route_id: 'r2', need_user_to_view: true },
  ],
  next_cursor: null,
  has_more: false,
};

/** Fresh modules per test: the current user is app-wide state that must not leak between tests. */
async function renderAt(path: string, replies: Record<string, FakeReply> = {}) {
  const { routes } = await import('./routes');
  const { UiProvider } = await import('../shared/ui/UiProvider');
  mockFetch((call) => replies[call.url.pathname] ?? { body: { user: null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return router;
}

describe('routes', () => {
  beforeEach(() => vi.resetModules());

  it('shows the error page for an unknown route, saying there is no such page and leading home', async () => {
    await renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('There is no page at this address.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the start page' }).getAttribute('href')).toBe('/');
  });

  it('sends / to the landing page when no group is remembered', async () => {
    const router = await renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Find customers in your city' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/landing');
  });

  it('sends / to the remembered group feed', async () => {
    localStorage.setItem('agora.group_id', 'amsterdam');
    const router = await renderAt('/', { '/api/feed': { body: feedReply } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Amsterdam' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/amsterdam');
  });

  it('shows a feed with prices, and a placeholder for posts that need a user', async () => {
    await renderAt('/feed/amsterdam', { '/api/feed': { body: feedReply } });
    expect(await screen.findByText('Fix my bike')).toBeTruthy();
    expect(screen.getByText('🪙 40')).toBeTruthy();
    expect(screen.getByText('Login to view content')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New post' })).toBeTruthy();
    // Remembered by an effect of the render that shows the feed, which may run after it is seen.
    await waitFor(() => expect(JSON.parse(localStorage.getItem('agora.recent_groups') ?? '[]')).toEqual([{ _id: 'amsterdam', title: 'Amsterdam' }]));
  });

  it('says so when the group cannot be viewed', async () => {
    await renderAt('/amsterdam', { '/api/feed': { status: 403, body: { errors: { invalid_group: 'x' } } } });
    expect(await screen.findByText('Cannot view group, not authorized or invalid')).toBeTruthy();
  });

  it('keeps /select/city and /landing from being read as groups', async () => {
    await renderAt('/select/city', { '/api/cities': { body: { cities: [] } } });
    expect(await screen.findByRole('heading', { name: 'Please Select your City' })).toBeTruthy();
  });

  it('shows the login screen on /profile to visitors', async () => {
    await renderAt('/profile');
    expect(await screen.findByRole('heading', { name: 'You are not logged in' })).toBeTruthy();
  });

  it('shows the profile, wallets, hint and unseen-notification dot to a user', async () => {
    localStorage.setItem('agora.auth_key', 'key');
    await renderAt('/profile?can_withdraw=1', {
      '/user/me': { body: { user: ada, guest_user: {} } },
      '/api/user/profile': {
        body: {
          user: ada,
          user_wallets: [
            { wallet_for: 'u1', wallet_amount: 40, wallet_currency: 'POINTS', user_id: 'u1', data: {} },
            { wallet_for: 'u1', wallet_amount: 12.5, wallet_currency: 'EUR', user_id: 'u1', data: {} },
          ],
          ...noRewards,
        },
      },
      '/api/user/items': { body: { items: [] } },
      '/api/finder_fees': { body: { finder_fees: [] } },
      '/api/reviews': noReviews,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(await screen.findByText('You can withdraw your money now')).toBeTruthy();
    expect(screen.getByText('+31612345678')).toBeTruthy();
    expect(await screen.findByText('🪙 40')).toBeTruthy();
    expect(screen.getByText('€12.50')).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('img', { name: '2 unseen notifications' })).toBeTruthy();
  });

  it('shows a friendly empty state without wallets', async () => {
    localStorage.setItem('agora.auth_key', 'key');
    await renderAt('/profile', {
      '/user/me': { body: { user: ada, guest_user: {} } },
      '/api/user/profile': { body: { user: ada, user_wallets: [], ...noRewards } },
      '/api/user/items': { body: { items: [] } },
      '/api/finder_fees': { body: { finder_fees: [] } },
      '/api/reviews': noReviews,
    });
    expect(await screen.findByText('No wallets yet')).toBeTruthy();
  });
});
