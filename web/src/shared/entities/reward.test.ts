import { describe, expect, it } from 'vitest';
import { closedMark, isClosed, lifetimeText, postLifetime, rewardBadges } from './reward';

const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);
const texts = (item: Parameters<typeof rewardBadges>[0]) => rewardBadges(item).map((badge) => badge.text);

describe('rewardBadges', () => {
  it('says a held reward is held, with what is held (reward and fee pool)', () => {
    expect(texts({ offer_amount: 40, offer_currency: 'POINTS', reward_status: 'held', reward_held: 44 })).toEqual(['Reward held 🪙 44']);
  });

  it('says paid once an offer was paid, beside what is still held, and counts several offers', () => {
    const paid = { offer_amount: 40, offer_currency: 'USD', reward_status: 'held' as const, reward_held: 4, reward_paid: 40, reward_paid_count: 1 };
    expect(texts(paid)).toEqual(['Reward held $4', 'Paid $40']);
    expect(texts({ ...paid, reward_held: 0, reward_status: 'released', reward_paid: 80, reward_paid_count: 2 })).toEqual(['Paid $80 in 2 offers']);
  });

  it('never says held on a closed post, even before its hold is given back', () => {
    expect(texts({ offer_amount: 40, offer_currency: 'POINTS', reward_status: 'held', reward_held: 44, closed_at: day('2026-12-03'), closed_reason: 'closed' })).toEqual([]);
  });

  it('says a released reward that paid nothing was given back', () => {
    expect(texts({ offer_amount: 40, offer_currency: 'POINTS', reward_status: 'released', reward_held: 0, reward_paid_count: 0 })).toEqual(['Reward given back']);
  });

  it('marks a reward in words (or from before holds) not held, and a post without a reward not at all', () => {
    expect(texts({ offer_description: '30% revenue share', reward_status: 'not_held' })).toEqual(['Not held']);
    expect(texts({ offer_amount: 5, offer_currency: 'EUR', reward_status: 'not_held' })).toEqual(['Not held']);
    expect(texts({ reward_status: 'none' })).toEqual([]);
    // Visitors of posts that need a user get none of the reward fields.
    expect(texts({})).toEqual([]);
  });
});

describe('closedMark', () => {
  it("marks a card 'Closed' or 'Expired', and an open post (or one from before expiry) not at all", () => {
    expect(closedMark({ closed_at: day('2026-12-03'), closed_reason: 'closed' })).toBe('Closed');
    expect(closedMark({ closed_at: day('2026-12-28'), closed_reason: 'expired' })).toBe('Expired');
    expect(closedMark({ expires_at: day('2026-12-28'), closed_at: null })).toBeNull();
    expect(closedMark({})).toBeNull();
  });
});

describe('postLifetime', () => {
  it('is open until its expiry, closed or expired once closed, and unknown for posts from before', () => {
    expect(postLifetime({ expires_at: day('2026-12-28'), closed_at: null })).toEqual({ state: 'open', until: day('2026-12-28') });
    expect(postLifetime({ expires_at: day('2026-12-28'), closed_at: day('2026-12-03'), closed_reason: 'closed' })).toEqual({ state: 'closed', at: day('2026-12-03') });
    expect(postLifetime({ expires_at: day('2026-12-28'), closed_at: day('2026-12-28'), closed_reason: 'expired' })).toEqual({ state: 'expired', at: day('2026-12-28') });
    expect(postLifetime({ expires_at: null })).toBeNull();
    expect(isClosed({ closed_at: day('2026-12-03') })).toBe(true);
    expect(isClosed({ closed_at: null })).toBe(false);
  });

  it('reads as a date', () => {
    expect(lifetimeText({ state: 'open', until: day('2026-12-28') })).toBe('Open until Dec 28, 2026');
    expect(lifetimeText({ state: 'closed', at: day('2026-12-03') })).toBe('Closed on Dec 3, 2026');
    expect(lifetimeText({ state: 'expired', at: day('2026-12-28') })).toBe('Expired on Dec 28, 2026');
  });
});
