import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../test/fakeSocket';
import { serve } from '../../test/standIns';
import { mockFetch, type FetchCall } from '../../test/fetchMock';
import { heldPostExpires, heldPostPoster as poster, heldRewardPost } from '../../test/heldPost';

/** The server's side of the socket: the test sends what the server would. */
const fakeSocket = new FakeSocket();
serve({ socket: fakeSocket });

const held = heldRewardPost();
const expires = heldPostExpires;

async function openPost() {
  const calls = mockFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/user/me') return { body: { user: poster, guest_user: {} } };
    if (pathname === '/api/r/r1') return { body: { item: held, group: { _id: 'g1', title: 'Dog people' }, route_users: [{ _id: 'u1', name: 'Pia Poster', image: '' }] } };
    if (pathname === '/api/item' && call.url.searchParams.get('action') === 'close') {
      return { body: { item: { ...held, reward_status: 'released', reward_held: 0, closed_at: expires - 86_400_000 * 25, closed_reason: 'closed' } } };
    }
    return { status: 404, body: { errors: 'unexpected call' } };
  });
  const { routes } = await import('../../app/routes');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/r/r1'] })} />
    </UiProvider>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Walk my dog' });
  return calls;
}

const reads = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === '/api/r/r1');

describe('post page: the held reward', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeSocket.reset();
  });

  it("shows what is held, until when the post is open, and who posted it; the server's news and Close change it in place", async () => {
    const calls = await openPost();
    expect(screen.getByTestId('reward-held').textContent).toBe('Reward held 🪙 44');
    expect(screen.getByTestId('post-lifetime').textContent).toBe('Open until Dec 28, 2026');
    expect(screen.getByRole('link', { name: 'Pia Poster' }).getAttribute('href')).toBe('/u/u1');

    // An offer paid from the hold: the server sends the poster the post as it now is.
    await waitFor(() => expect(fakeSocket.handlers.get('item')?.size).toBe(1));
    await act(async () => fakeSocket.serverSends('item', { item: { ...held, reward_held: 0, reward_paid: 40, reward_paid_count: 1 } }));
    expect(screen.getByTestId('reward-paid').textContent).toBe('Paid 🪙 40');
    expect(screen.queryByTestId('reward-held')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Close post' }));
    // Nothing is held any more: the question says no more than closing.
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Close this post?' })).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Post closed.');
    expect(screen.getByTestId('post-lifetime').textContent).toBe('Closed on Dec 3, 2026');
    expect(screen.queryByRole('button', { name: 'Close post' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(calls.filter((call) => call.url.searchParams.get('action') === 'close').map((call) => call.body)).toEqual([{ item_id: 'i1' }]);
    expect(reads(calls)).toHaveLength(1);
  });

  it('asks before closing a post that holds money, naming what goes back', async () => {
    await openPost();
    fireEvent.click(screen.getByRole('button', { name: 'Close post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close this post? 🪙 44 still held goes back to your wallet.' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('reward-held').textContent).toBe('Reward held 🪙 44');
  });
});
