import type { Item } from '../shared/entities/item';

/** Pia, who posts the held-reward post below and is signed in as in the tests that use it. */
export const heldPostPoster = {
  _id: 'u1',
  name: 'Pia Poster',
  image: '',
  phone_number: null,
  email_id: 'p@x.test',
  data: { notifications_unseen_count: 0 },
  created_at: 0,
};

/** When the held-reward post closes on its own (a month after it went up). */
export const heldPostExpires = Date.parse('2026-12-28T12:00:00Z');

/**
 * Pia's post 'Walk my dog' in group g1 (route r1), whose reward of 🪙 40 and finder's fee of
 * 10 % are held from her wallet: 🪙 44 held, nothing paid yet. `changes` give later states.
 */
export function heldRewardPost(changes: Partial<Item> = {}): Item {
  return {
    _id: 'i1',
    group_id: 'g1',
    user_id: 'u1',
    route_id: 'r1',
    created_at: Date.now(),
    updated_at: 0,
    sort_order: 1,
    need_user_to_view: false,
    title: 'Walk my dog',
    offer_amount: 40,
    offer_currency: 'POINTS',
    finder_fee_percent: 10,
    reward_status: 'held',
    reward_held: 44,
    reward_pool: 4,
    reward_hold: 44,
    reward_paid: 0,
    reward_paid_count: 0,
    expires_at: heldPostExpires,
    closed_at: null,
    closed_reason: null,
    ...changes,
  };
}
