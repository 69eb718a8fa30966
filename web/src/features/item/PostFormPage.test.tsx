import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../test/fakeSocket';
import { serve } from '../../test/standIns';
import { mockFetch, type FakeReply, type FetchCall } from '../../test/fetchMock';
import { heldPostPoster as poster, heldRewardPost } from '../../test/heldPost';

/** The server's side of the socket: the test sends what the server would. */
const fakeSocket = new FakeSocket();
serve({ socket: fakeSocket });

const group = { _id: 'g1', title: 'Amsterdam', is_public: true, write_permission: 20, session_user_type: 20, can_write: true, data: { tags: [], num_posts: 0, num_members: 1 } };
const heldItem = heldRewardPost();

type Answer = (call: FetchCall) => FakeReply | undefined;

async function openForm(path: string, answer: Answer, shown: typeof group = group) {
  localStorage.setItem('agora.auth_key', 'key');
  const calls = mockFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/user/me') return { body: { user: poster, guest_user: {} } };
    if (pathname === '/api/group') return { body: { group: shown } };
    if (pathname === '/api/item' && !call.url.searchParams.get('action')) return { body: { item: heldItem, group } };
    return answer(call) ?? { status: 404, body: { errors: 'unexpected call' } };
  });
  const { PostFormPage } = await import('./PostFormPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter(
    [
      { path: '/create/item/:groupId', element: <PostFormPage /> },
      { path: '/edit/item/:groupId/:itemId', element: <PostFormPage /> },
      { path: '/r/:routeId', element: <p>posted</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  await screen.findByText(shown.can_write ? 'in Amsterdam' : 'You cannot post in this group');
  return calls;
}

const previews = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === '/api/reward/hold_preview');
const note = () => screen.getByTestId('hold-note');

describe('post form: the held reward', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeSocket.reset();
  });

  it('says what posting will hold once the amount settles, refuses more than is available with the way to recharge, and asks again when money arrives', async () => {
    let available = 100;
    const calls = await openForm('/create/item/g1', (call) => {
      if (call.url.pathname !== '/api/reward/hold_preview') return undefined;
      const { offer_amount: amount, offer_currency: currency } = call.body as { offer_amount: number; offer_currency: string };
      const hold = amount + amount / 10;
      const preview = { currency, reward: amount, pool: amount / 10, hold, held_now: 0, change: hold, available };
      if (hold > available) return { body: { ...preview, enough: false, need_stripe_recharge: { amount: Math.ceil(hold - available), currency } } };
      return { body: { ...preview, enough: true } };
    });
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '4' } });
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '40' } });
    await waitFor(() => expect(note().textContent).toBe('Held when you post: 🪙 44 (reward 🪙 40 + finder’s fee 🪙 4). You have 🪙 100 available.'));
    // Asked once the typing settled, not per keystroke.
    expect(previews(calls).map((call) => call.body)).toEqual([{ offer_amount: 40, offer_currency: 'POINTS', finder_fee_percent: 10 }]);

    fireEvent.change(screen.getByLabelText('Offer currency'), { target: { value: 'USD' } });
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '400' } });
    const link = await screen.findByRole('link', { name: 'Need Recharge' });
    expect(note().textContent).toContain('Holding this reward needs $440 and your wallet has $100 available.');
    expect(link.getAttribute('href')).toBe('/recharge?amount=340&currency=USD');

    // A recharge in another tab: the server's `wallet` event brings the preview up to date.
    available = 500;
    await act(async () => fakeSocket.serverSends('wallet', { wallet: {} }));
    await waitFor(() => expect(note().textContent).toBe('Held when you post: $440 (reward $400 + finder’s fee $40). You have $500 available.'));

    fireEvent.click(screen.getByRole('radio', { name: 'describe' }));
    expect(note().textContent).toBe('Not held: a reward in words is between you and the helper.');
  });

  it("shows the server's refusal of a save under the reward, not in a popup, until the form changes", async () => {
    const calls = await openForm('/create/item/g1', (call) => {
      if (call.url.pathname === '/api/reward/hold_preview') return { status: 503, body: { errors: 'busy' } };
      if (call.url.searchParams.get('action') === 'create') {
        return {
          status: 402,
          body: { errors: { offer_amount: 'Holding this reward needs 🪙 440 and your wallet has 🪙 100 available', need_recharge: 'You need 340 more points to hold this reward' } },
        };
      }
      return undefined;
    });
    fireEvent.change(screen.getByPlaceholderText('What do you need to get done today ?'), { target: { value: 'Paint the shed' } });
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '400' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(note().textContent).toContain('Holding this reward needs 🪙 440 and your wallet has 🪙 100 available'));
    expect(note().textContent).toContain('You need 340 more points to hold this reward');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((call) => call.url.searchParams.get('action') === 'create')).toBe(true);
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '50' } });
    expect(note().textContent).not.toContain('You need 340 more points');
  });

  it('tells an edit how the hold moves, and that a reward in words gives back what is held', async () => {
    await openForm('/edit/item/g1/i1', (call) => {
      if (call.url.pathname !== '/api/reward/hold_preview') return undefined;
      expect(call.body).toMatchObject({ item_id: 'i1' });
      return { body: { currency: 'POINTS', reward: 30, pool: 3, hold: 33, held_now: 44, change: -11, available: 56, enough: true } };
    });
    fireEvent.change(screen.getByLabelText('Offer amount'), { target: { value: '30' } });
    await waitFor(() => expect(note().textContent).toBe('🪙 11 goes back to your wallet (🪙 33 stays held).'));
    fireEvent.click(screen.getByRole('radio', { name: 'describe' }));
    expect(note().textContent).toBe('Not held: a reward in words is between you and the helper. What is held now (🪙 44) goes back to your wallet.');
  });
});

describe('post form: who may post (issue 42)', () => {
  beforeEach(() => vi.resetModules());

  it('opens a new post with the cursor in its title', async () => {
    await openForm('/create/item/g1', () => undefined);
    expect(document.activeElement).toBe(screen.getByPlaceholderText('What do you need to get done today ?'));
  });

  it('tells a blocked member why before they fill anything in, with no fields to fill', async () => {
    await openForm('/create/item/g1', () => undefined, { ...group, session_user_type: 40, can_write: false });
    expect(screen.getByText('A moderator of this group blocked you.')).toBeTruthy();
    expect(screen.queryByPlaceholderText('What do you need to get done today ?')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Post' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the posts' }).getAttribute('href')).toBe('/g1');
  });
});
