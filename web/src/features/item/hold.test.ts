import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/errors';
import { holdNote, holdRequest, notHeldNote, refusedNote } from './hold';
import type { HoldPreview } from './itemApi';
import { formFromItem, type ItemForm } from './itemForm';

const form = (changes: Partial<ItemForm>): ItemForm => ({ ...formFromItem(null), ...changes });
const preview = (changes: Partial<HoldPreview>): HoldPreview => ({
  currency: 'POINTS',
  reward: 40,
  pool: 4,
  hold: 44,
  held_now: 0,
  change: 44,
  available: 100,
  enough: true,
  ...changes,
});

describe('holdRequest', () => {
  it('asks about a usable amount with its currency and fee, and for an edit names the post', () => {
    expect(holdRequest(form({ offerAmount: '40', offerCurrency: 'USD', finderFeePercent: '10' }), undefined)).toEqual({
      offer_amount: 40,
      offer_currency: 'USD',
      finder_fee_percent: 10,
    });
    expect(holdRequest(form({ offerAmount: '40' }), 'i1')).toMatchObject({ item_id: 'i1' });
  });

  it('asks nothing for a reward in words, an empty or bad amount, or a fee the form refuses', () => {
    expect(holdRequest(form({ offerType: 'describe', offerAmount: '40' }), undefined)).toBeNull();
    expect(holdRequest(form({ offerAmount: '' }), undefined)).toBeNull();
    expect(holdRequest(form({ offerAmount: '0' }), undefined)).toBeNull();
    expect(holdRequest(form({ offerAmount: 'ten' }), undefined)).toBeNull();
    expect(holdRequest(form({ offerAmount: '40', finderFeePercent: '60' }), undefined)).toBeNull();
  });
});

describe('holdNote', () => {
  it('tells a new post what posting holds: the reward, the fee pool, and what is available', () => {
    expect(holdNote(preview({}), false)).toEqual({
      kind: 'info',
      text: 'Held when you post: 🪙 44 (reward 🪙 40 + finder’s fee 🪙 4). You have 🪙 100 available.',
    });
    expect(holdNote(preview({ pool: 0, hold: 40, change: 40 }), false).text).toBe('Held when you post: 🪙 40. You have 🪙 100 available.');
  });

  it('tells an edit how the hold moves: more held, some given back, or nothing', () => {
    expect(holdNote(preview({ hold: 55, held_now: 44, change: 11, available: 56 }), true).text).toBe(
      '🪙 11 more will be held (🪙 55 in all). You have 🪙 56 available.',
    );
    expect(holdNote(preview({ hold: 33, held_now: 44, change: -11 }), true).text).toBe('🪙 11 goes back to your wallet (🪙 33 stays held).');
    expect(holdNote(preview({ held_now: 44, change: 0 }), true).text).toBe('🪙 44 stays held.');
    expect(holdNote(preview({ held_now: 0, change: 0 }), true).text).toBe('Nothing more will be held.');
    // A post whose hold an offer used up (or from before holds) holds the raise anew.
    expect(holdNote(preview({ hold: 55, held_now: 0, change: 11, available: 56 }), true).text).toBe(
      '🪙 11 more will be held (🪙 11 in all). You have 🪙 56 available.',
    );
  });

  it('refuses a hold above what is available, with the way to recharge a card currency', () => {
    const short = preview({ currency: 'USD', hold: 440, change: 440, available: 100, enough: false, need_stripe_recharge: { amount: 340, currency: 'USD' } });
    expect(holdNote(short, false)).toEqual({
      kind: 'refused',
      text: 'Holding this reward needs $440 and your wallet has $100 available.',
      shortBalance: { kind: 'need_stripe_recharge', amount: 340, currency: 'USD' },
    });
    const points = preview({ hold: 440, change: 440, enough: false, need_recharge: 'You need 340 more points to hold this reward' });
    expect(holdNote(points, false)).toMatchObject({ shortBalance: { kind: 'need_recharge', message: 'You need 340 more points to hold this reward' } });
  });
});

describe('notHeldNote and refusedNote', () => {
  it('says a reward in words is not held, and what an edited post held goes back', () => {
    expect(notHeldNote(0, 'POINTS').text).toBe('Not held: a reward in words is between you and the helper.');
    expect(notHeldNote(44, 'POINTS').text).toBe('Not held: a reward in words is between you and the helper. What is held now (🪙 44) goes back to your wallet.');
  });

  it("puts the server's refusal of the reward under it, and leaves other failures to the popup", () => {
    const short: ApiError = {
      status: 402,
      errors: { offer_amount: 'Holding this reward needs $440 and your wallet has $100 available', need_stripe_recharge: { amount: 340, currency: 'USD' } },
    };
    expect(refusedNote(short)).toEqual({
      kind: 'refused',
      text: 'Holding this reward needs $440 and your wallet has $100 available',
      shortBalance: { kind: 'need_stripe_recharge', amount: 340, currency: 'USD' },
    });
    const currency: ApiError = { status: 400, errors: { offer_currency: 'A held reward keeps its currency: close the post and post again to change it' } };
    expect(refusedNote(currency)).toMatchObject({ kind: 'refused', shortBalance: null });
    expect(refusedNote({ status: 400, errors: { title: 'Required' } })).toBeNull();
    expect(refusedNote({ status: 500, errors: 'boom' })).toBeNull();
    expect(refusedNote(new Error('offline'))).toBeNull();
  });
});
