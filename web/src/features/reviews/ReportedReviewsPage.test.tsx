import { fireEvent, render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply, type FetchCall } from '../../test/fetchMock';
import { aReview } from '../../test/review';

const moderator = { _id: 'u1', name: 'Pia', image: '', phone_number: null, email_id: 'p@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
const reported = {
  ...aReview({ author: { _id: 'u2', name: 'Aki Asker', image: '' }, subject_id: 'u3', rating: 1, text: 'Rude.' }),
  hidden_by: null,
  hidden_at: null,
  reports_count: 2,
  reports: [
    { user_id: 'u4', reason: 'Not about the offer', at: 1 },
    { user_id: 'u5', reason: '', at: 2 },
  ],
};

async function openPage(answer: (call: FetchCall) => FakeReply) {
  localStorage.setItem('agora.auth_key', 'key');
  const calls = mockFetch((call) => (call.url.pathname === '/user/me' ? { body: { user: moderator, guest_user: {} } } : answer(call)));
  const { ReportedReviewsPage } = await import('./ReportedReviewsPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <UiProvider>
      <RouterProvider router={createMemoryRouter([{ path: '/group/:groupId/reviews', element: <ReportedReviewsPage /> }], { initialEntries: ['/group/g1/reviews'] })} />
    </UiProvider>,
  );
  return calls;
}

describe('reported reviews', () => {
  beforeEach(() => vi.resetModules());

  it("lists the group's reported reviews with their reports; a moderator hides one and shows it again", async () => {
    const calls = await openPage((call) => {
      if (call.url.pathname === '/api/reviews/reported') return { body: { reviews: [reported], has_more: false, cursor: null } };
      const { hidden } = call.body as { hidden: boolean };
      return { body: { review: { ...reported, hidden, hidden_by: { _id: 'u1', name: 'Pia', image: '' }, hidden_at: Date.now() } } };
    });
    const row = await screen.findByTestId('reported-review');
    expect(row.textContent).toContain('Rude.');
    expect(row.textContent).toContain('Reported 2 times: “Not about the offer”');
    fireEvent.click(within(row).getByRole('button', { name: 'Hide review' }));
    await screen.findByText('Review hidden');
    expect(within(row).getByText('Hidden')).toBeTruthy();
    expect(within(row).getByTestId('hidden-by').textContent).toMatch(/^Hidden by Pia/);
    fireEvent.click(within(row).getByRole('button', { name: 'Show again' }));
    await screen.findByText('Review shown again');
    expect(within(row).queryByText('Hidden')).toBeNull();
    expect(calls.filter((call) => call.url.pathname === '/api/review').map((call) => [call.url.searchParams.get('action'), call.body])).toEqual([
      ['hide', { review_id: 'rv1', hidden: true }],
      ['hide', { review_id: 'rv1', hidden: false }],
    ]);
  });

  it('leaves a review of the moderator to the other moderators, and says who hid one (issue 41)', async () => {
    const aboutPia = { ...reported, _id: 'rv2', subject_id: 'u1' };
    const byPia = { ...reported, _id: 'rv3', author: { _id: 'u1', name: 'Pia', image: '' }, hidden: true, hidden_by: { _id: 'u6', name: 'Mo', image: '' }, hidden_at: Date.now() };
    await openPage(() => ({ body: { reviews: [aboutPia, byPia, reported], has_more: false, cursor: null } }));
    const [about, by, other] = (await screen.findAllByTestId('reported-review')) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(about).queryByRole('button')).toBeNull();
    expect(about.textContent).toContain('About you: another moderator decides.');
    // One they wrote is theirs to moderate as any other.
    expect(within(by).getByRole('button', { name: 'Show again' })).toBeTruthy();
    expect(within(by).getByTestId('hidden-by').textContent).toMatch(/^Hidden by Mo/);
    expect(within(other).getByRole('button', { name: 'Hide review' })).toBeTruthy();
  });

  it('tells anyone but a moderator that the list is theirs only', async () => {
    await openPage(() => ({ status: 403, body: { errors: { group_id: "Only the group's moderators can see reported reviews" } } }));
    expect(await screen.findByText("Only the group's moderators can see reported reviews")).toBeTruthy();
  });
});

describe('reported reviews link', () => {
  beforeEach(() => vi.resetModules());

  async function renderLink(notHidden: number) {
    mockFetch((call) => (call.url.pathname === '/api/reviews/reported' ? { body: { reviews: [], not_hidden_count: notHidden, has_more: false, cursor: null } } : { status: 404, body: { errors: 'unexpected call' } }));
    const { ReportedReviewsLink } = await import('./ReportedReviewsLink');
    render(<RouterProvider router={createMemoryRouter([{ path: '/group/:groupId', element: <ReportedReviewsLink groupId="g1" /> }], { initialEntries: ['/group/g1'] })} />);
  }

  it('shows beside the link how many reported reviews are not hidden yet', async () => {
    await renderLink(2);
    expect((await screen.findByTestId('reported-count')).textContent).toBe('2 not hidden');
    expect(screen.getByRole('link').getAttribute('href')).toBe('/group/g1/reviews');
  });

  it('shows no count when every reported review is hidden', async () => {
    await renderLink(0);
    expect(await screen.findByRole('link', { name: 'Reported reviews' })).toBeTruthy();
    expect(screen.queryByTestId('reported-count')).toBeNull();
  });
});
