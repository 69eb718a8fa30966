import type { Review } from '../features/reviews/reviewsApi';

/** Bram's review of Ada (u1) after the paid offer m1 on post i1 of group g1; `changes` give other reviews. */
export function aReview(changes: Partial<Review> = {}): Review {
  return {
    _id: 'rv1',
    move_id: 'm1',
    item_id: 'i1',
    group_id: 'g1',
    author: { _id: 'u2', name: 'Bram Asker', image: '' },
    subject_id: 'u1',
    rating: 4,
    text: 'Paid at once.',
    private: false,
    created_at: Date.now(),
    updated_at: Date.now(),
    editable_until: Date.now(),
    hidden: false,
    ...changes,
  };
}
