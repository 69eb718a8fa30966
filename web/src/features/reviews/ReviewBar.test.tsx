import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../test/fakeSocket';
import { serve } from '../../test/standIns';
import { mockFetch, type FetchCall } from '../../test/fetchMock';
import type { Session } from '../../shared/chat/types';
import type { Review } from './reviewsApi';

/** The server's side of the socket: the test sends what the server would. */
const fakeSocket = new FakeSocket();
serve({ socket: fakeSocket });

const chat = {
  _id: 'r_i1_u2',
  data: { item_id: 'i1', owner_id: 'u1', user_id: 'u2', last_offer: { move_id: 'm1', amount: 40, currency: 'POINTS', at: 1 } },
} as unknown as Session;
const bram = { _id: 'u2', name: 'Bram Asker', image: '' };
const olga = { _id: 'u1', name: 'Olga Owner', image: '' };
const review = (author: typeof olga, rating: number, text: string): Review => ({
  _id: `rv-${author._id}`,
  move_id: 'm1',
  item_id: 'i1',
  group_id: 'g1',
  author,
  subject_id: author._id === 'u1' ? 'u2' : 'u1',
  rating,
  text,
  private: false,
  created_at: Date.now(),
  updated_at: Date.now(),
  editable_until: Date.now() + 7 * 86_400_000,
  hidden: false,
});

const paid = (move_id: string, reviewed: boolean) => ({ move_id, amount: 40, currency: 'POINTS', at: Date.now() - 3 * 86_400_000, reviewed });

async function renderBar(meId: string, chatOffers = [paid('m1', false)]) {
  const calls = mockFetch((call) => {
    if (call.url.pathname === '/api/reviews/chat') return { body: { offers: chatOffers } };
    if (call.url.pathname === '/api/reviews/offer') return { body: { move_id: 'm1', item_id: 'i1', subject: bram, review: null, their_review: null, can_review: true } };
    if (call.url.pathname === '/api/review') {
      const { rating, text } = call.body as { rating: number; text: string };
      return { body: { review: review(olga, rating, text) } };
    }
    return { status: 404, body: { errors: 'unexpected call' } };
  });
  const { ReviewBar } = await import('./ReviewBar');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <MemoryRouter>
      <UiProvider>
        <ReviewBar session={chat} meId={meId} />
      </UiProvider>
    </MemoryRouter>,
  );
  return calls;
}

/** The paragraph whose whole text (a name link inside included) is `text`. */
const paragraph = (text: string | RegExp) => (_: string, element: Element | null) =>
  element?.tagName === 'P' && (typeof text === 'string' ? element.textContent === text : text.test(element.textContent ?? ''));

const saves = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === '/api/review');

describe('review bar', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeSocket.reset();
  });

  it('lets a side of the paid offer review the other once, with stars and a few words, and shows their review as it comes', async () => {
    const calls = await renderBar('u1');
    expect(await screen.findByText(paragraph('Paid. How was it with Bram?'))).toBeTruthy();
    // The name leads to Bram's profile: the reviews others wrote of him (issue 42).
    expect(screen.getByRole('link', { name: 'Bram' }).getAttribute('href')).toBe(`/u/${bram._id}`);
    fireEvent.click(screen.getByRole('button', { name: 'Review Bram' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review Bram Asker' });

    // No stars chosen: refused here, in the server's words, and nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post review' }));
    expect(await within(dialog).findByText('Choose 1 to 5 stars')).toBeTruthy();
    expect(saves(calls)).toEqual([]);

    fireEvent.click(within(dialog).getByRole('radio', { name: '4 out of 5 stars' }));
    expect(within(dialog).getByRole('radio', { name: '4 out of 5 stars' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.change(within(dialog).getByLabelText('A few words (optional)'), { target: { value: ' Quick and careful. ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post review' }));
    await screen.findByText('Review saved');
    expect(saves(calls).map((call) => [call.url.searchParams.get('action'), call.body])).toEqual([
      ['create', { move_id: 'm1', rating: 4, text: 'Quick and careful.' }],
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(paragraph(/^Your review of Bram/)).querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('4 out of 5 stars');

    // Changing it is an update of the same review.
    fireEvent.click(screen.getByRole('button', { name: 'Change review' }));
    const change = await screen.findByRole('dialog', { name: 'Your review of Bram Asker' });
    fireEvent.click(within(change).getByRole('radio', { name: '5 out of 5 stars' }));
    fireEvent.click(within(change).getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Review changed');
    expect(saves(calls).at(-1)?.url.searchParams.get('action')).toBe('update');
    expect(saves(calls).at(-1)?.body).toEqual({ review_id: 'rv-u1', rating: 5, text: 'Quick and careful.' });

    await act(async () => fakeSocket.serverSends('review', { review: review(bram, 5, 'Paid at once.') }));
    expect(screen.getByTestId('their-review').textContent).toContain('Paid at once.');
  });

  it("offers a review of each earlier paid offer of the chat not reviewed yet, and drops it once reviewed", async () => {
    const calls = await renderBar('u1', [paid('m0', false), paid('m00', true), paid('m1', false)]);
    const earlier = await screen.findByTestId('earlier-offers');
    // The latest offer (m1) has the bar's own line; m00 was reviewed already.
    expect(within(earlier).getAllByRole('button').map((button) => button.textContent)).toEqual(['Review 🪙 40, 3 days ago']);
    fireEvent.click(within(earlier).getByRole('button'));
    const dialog = await screen.findByRole('dialog', { name: 'Review Bram Asker' });
    fireEvent.click(within(dialog).getByRole('radio', { name: '3 out of 5 stars' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Post review' }));
    await screen.findByText('Review saved');
    expect(saves(calls).map((call) => call.body)).toEqual([{ move_id: 'm0', rating: 3, text: '' }]);
    expect(screen.queryByTestId('earlier-offers')).toBeNull();
    expect(screen.getByText(paragraph('Paid. How was it with Bram?'))).toBeTruthy();
  });

  it('shows nothing to anyone but the two sides', async () => {
    const calls = await renderBar('u3');
    expect(screen.queryByTestId('review-bar')).toBeNull();
    expect(calls).toEqual([]);
  });
});
