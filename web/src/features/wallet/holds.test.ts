import { describe, expect, it } from 'vitest';
import { heldChangeText, heldOf, isRewardReleased, releasedNoticeText } from './holds';

describe('reward holds in the wallet', () => {
  it("tells the poster a released reward is back, saying why", () => {
    const event = { item_id: 'i1', title: 'Walk my dog', amount: 34, currency: 'POINTS', reason: 'expired' as const };
    expect(isRewardReleased(event)).toBe(true);
    expect(releasedNoticeText(event)).toBe("Reward released: 'Walk my dog' expired. 🪙 34 is back in your wallet.");
    expect(releasedNoticeText({ ...event, amount: 2.5, currency: 'USD', reason: 'closed' })).toBe("Reward released: 'Walk my dog' closed. $2.50 is back in your wallet.");
    expect(isRewardReleased({ item_id: 'i1' })).toBe(false);
    expect(isRewardReleased(null)).toBe(false);
  });

  it('shows the held part of a ledger entry only when it moved', () => {
    expect(heldChangeText({ held_diff: 44 }, 'POINTS')).toBe('held +🪙 44');
    expect(heldChangeText({ held_diff: -40 }, 'USD')).toBe('held -$40');
    expect(heldChangeText({ held_diff: 0 }, 'USD')).toBeNull();
    expect(heldChangeText({}, 'USD')).toBeNull();
  });

  it('counts nothing held for wallets from before holds', () => {
    expect(heldOf({})).toBe(0);
    expect(heldOf({ held_amount: 12.5 })).toBe(12.5);
  });
});
