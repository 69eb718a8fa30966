import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import type { Group } from '../../shared/entities/group';

const ada = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

/** The group as the server shows it to a visitor (no membership) or to its member Ada. */
const group = (member: boolean): Group => ({
  _id: 'g1',
  title: member ? 'Bikes (member view)' : 'Bikes',
  description: '',
  image: '',
  is_public: true,
  is_read_allowed: true,
  write_permission: 20,
  created_at: 0,
  session_user_type: member ? 20 : null,
  can_write: member,
  data: { tags: [], num_posts: 0, num_members: 1 },
});

describe('feed page', () => {
  beforeEach(() => vi.resetModules());

  it("loads the group again once the visitor logs in, showing the member's view", async () => {
    // The server answers as whoever signs the request; the test logs in by flipping this.
    let signedIn = false;
    const calls = mockFetch((call) => {
      if (call.url.pathname === '/user/me') return { body: { user: signedIn ? ada : null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } };
      return { body: { items: [], group: group(signedIn), has_more: false, next_cursor: null } };
    });
    const { FeedPage } = await import('./FeedPage');
    const { setAuthKey } = await import('../../shared/session/authKey');
    const router = createMemoryRouter([{ path: '/:groupId', element: <FeedPage /> }], { initialEntries: ['/g1'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bikes' })).toBeTruthy();
    const feedCalls = () => calls.filter((call) => call.url.pathname === '/api/feed').length;
    expect(feedCalls()).toBe(1);

    signedIn = true;
    await act(async () => setAuthKey('key-of-ada'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bikes (member view)' })).toBeTruthy();
    expect(feedCalls()).toBe(2);
  });

  it('keeps a search in the address, so Back from a post opened from it finds it again', async () => {
    const calls = mockFetch((call) => {
      if (call.url.pathname === '/user/me') return { body: { user: null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } };
      return { body: { items: [], group: group(false), has_more: false, next_cursor: null } };
    });
    const { FeedPage } = await import('./FeedPage');
    const router = createMemoryRouter(
      [
        { path: '/:groupId', element: <FeedPage /> },
        { path: '/r/:routeId', element: <p>A post</p> },
      ],
      { initialEntries: ['/g1'] },
    );
    render(<RouterProvider router={router} />);
    const box = await screen.findByRole('searchbox', { name: 'Search posts' });
    fireEvent.change(box, { target: { value: ' red bike ' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=red+bike'));
    // Typing replaces the entry: Back leaves the feed rather than undoing letters.
    expect(router.state.historyAction).toBe('REPLACE');

    await act(() => router.navigate('/r/abc'));
    await screen.findByText('A post');
    await act(() => router.navigate(-1));
    expect(((await screen.findByRole('searchbox', { name: 'Search posts' })) as HTMLInputElement).value).toBe('red bike');
    const lastSearch = () => calls.filter((call) => call.url.pathname === '/api/feed').map((call) => (call.body as { search_text?: string }).search_text).at(-1);
    await waitFor(() => expect(lastSearch()).toBe('red bike'));
  });

  it('tells a blocked member why they cannot post, with no way into a form the server would refuse (issue 42)', async () => {
    localStorage.setItem('agora.auth_key', 'key-of-ada');
    mockFetch((call) => {
      if (call.url.pathname === '/user/me') return { body: { user: ada, guest_user: {} } };
      return { body: { items: [], group: { ...group(true), session_user_type: 29, can_write: false }, has_more: false, next_cursor: null } };
    });
    const { FeedPage } = await import('./FeedPage');
    const router = createMemoryRouter([{ path: '/:groupId', element: <FeedPage /> }], { initialEntries: ['/g1'] });
    render(<RouterProvider router={router} />);
    const reason = await screen.findByTestId('cannot-post');
    expect(reason.textContent).toBe('You cannot post in this group. A moderator of this group blocked you.');
    expect(screen.queryByRole('button', { name: 'New post' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create a new post' })).toBeNull();
    localStorage.clear();
  });
});
