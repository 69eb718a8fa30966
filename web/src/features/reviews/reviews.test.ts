import { describe, expect, it } from 'vitest';
import { earlierToReview, isEditable, reviewDraftErrors, reviewableOffer, starsLabel, summaryText } from './reviews';

describe('reviews', () => {
  it('takes 1 to 5 whole stars and at most 500 characters, in the words the server uses', () => {
    expect(reviewDraftErrors({ rating: 4, text: 'On time and friendly.' })).toBeNull();
    expect(reviewDraftErrors({ rating: 0, text: '' })).toEqual({ rating: 'Choose 1 to 5 stars' });
    expect(reviewDraftErrors({ rating: 4.5, text: '' })).toEqual({ rating: 'Choose 1 to 5 stars' });
    expect(reviewDraftErrors({ rating: 5, text: 'x'.repeat(501) })).toEqual({ text: 'At most 500 characters' });
    expect(reviewDraftErrors({ rating: 5, text: `${'x'.repeat(500)}  ` })).toBeNull();
  });

  it('may be changed until editable_until', () => {
    expect(isEditable({ editable_until: 2000 }, 1999)).toBe(true);
    expect(isEditable({ editable_until: 2000 }, 2000)).toBe(false);
  });

  it('sums a person up', () => {
    expect(summaryText({ count: 0, average: null })).toBe('No reviews yet');
    expect(summaryText({ count: 1, average: 5 })).toBe('5 from 1 review');
    expect(summaryText({ count: 12, average: 4.5 })).toBe('4.5 from 12 reviews');
    expect(starsLabel(1)).toBe('1 out of 5 stars');
    expect(starsLabel(4)).toBe('4 out of 5 stars');
  });

  it("offers a review to the two sides of the chat's paid offer only", () => {
    const chat = { _id: 'r_i1_u2', data: { owner_id: 'u1', user_id: 'u2', last_offer: { move_id: 'm1', amount: 40, currency: 'POINTS', at: 1 } } };
    expect(reviewableOffer(chat, 'u1')).toEqual({ moveId: 'm1' });
    expect(reviewableOffer(chat, 'u2')).toEqual({ moveId: 'm1' });
    // A sharer paid a fee reads the chat only if public, and is not a side.
    expect(reviewableOffer(chat, 'u3')).toBeNull();
    expect(reviewableOffer(chat, null)).toBeNull();
    expect(reviewableOffer({ ...chat, data: { owner_id: 'u1', user_id: 'u2' } }, 'u1')).toBeNull();
    expect(reviewableOffer({ ...chat, _id: 'g1' }, 'u1')).toBeNull();
  });
});

describe('earlierToReview', () => {
  const offer = (move_id: string, reviewed = false) => ({ move_id, amount: 8, currency: 'POINTS', at: 1, reviewed });
  it("lists the chat's earlier paid offers the viewer has not reviewed, oldest first", () => {
    const offers = [offer('m1'), offer('m2', true), offer('m3'), offer('m4')];
    expect(earlierToReview(offers, 'm4', new Set()).map((o) => o.move_id)).toEqual(['m1', 'm3']);
  });

  it('drops one reviewed on this screen since the list was read, and is empty with one offer only', () => {
    expect(earlierToReview([offer('m1'), offer('m3')], 'm9', new Set(['m1'])).map((o) => o.move_id)).toEqual(['m3']);
    expect(earlierToReview([offer('m1')], 'm1', new Set())).toEqual([]);
  });
});
