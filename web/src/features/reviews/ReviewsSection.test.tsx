import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';
import { aReview } from '../../test/review';

const review = aReview();
/** A review after an offer in a group the viewer may not read (issue 41): no post, group or text. */
const withheld = aReview({ _id: 'rv2', author: { _id: 'u3', name: 'Cleo', image: '' }, rating: 2, item_id: null, group_id: null, text: null, private: true });

describe("a person's reviews", () => {
  beforeEach(() => vi.resetModules());

  it('shows the stars and author of a review after an offer in a private group, and says its text is for the group', async () => {
    mockFetch(() => ({ body: { reviews: [review, withheld], count: 2, average: 3, has_more: false, cursor: null } }));
    const { ReviewsSection } = await import('./ReviewsSection');
    const { UiProvider } = await import('../../shared/ui/UiProvider');
    render(
      <MemoryRouter>
        <UiProvider>
          <ReviewsSection userId="u1" viewerId={null} />
        </UiProvider>
      </MemoryRouter>,
    );
    const [open, closed] = (await screen.findAllByTestId('review')) as [HTMLElement, HTMLElement];
    expect(open.textContent).toContain('Paid at once.');
    expect(open.textContent).not.toContain('private group');
    // The author's name leads to their profile (issue 42), a private group's review's too.
    expect(within(closed).getByRole('link', { name: 'Cleo' }).getAttribute('href')).toBe('/u/u3');
    expect(closed.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('2 out of 5 stars');
    expect(closed.textContent).toContain('Written after an offer in a private group: only its members can read it.');
  });
});
