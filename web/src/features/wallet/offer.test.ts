import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/errors';
import {
  initialOfferState,
  offerCurrency,
  latestOffer,
  offerAmountError,
  offerFailure,
  offerRecipient,
  offerReducer,
  offerSourceText,
  type OfferEvent,
  type OfferState,
} from './offer';

const networkError: ApiError = { status: 0, errors: 'Cannot reach the server.' };
const serverError: ApiError = { status: 502, errors: 'Bad gateway' };
const refused: ApiError = { status: 400, errors: { offer_amount: 'The amount must be more than 0' } };
const shortOfDollars: ApiError = { status: 402, errors: { need_stripe_recharge: { amount: 5, currency: 'USD' } } };
const shortOfPoints: ApiError = { status: 402, errors: { need_recharge: 'You have 3 points; this offer needs 20.' } };

const run = (events: OfferEvent[], from: OfferState = initialOfferState) => events.reduce(offerReducer, from);

describe('offerAmountError', () => {
  it.each([
    [0.2, 'The smallest offer is 0.5'],
    [0.49, 'The smallest offer is 0.5'],
    [0.5, null],
    [12, null],
  ])('%s -> %s', (amount, error) => {
    expect(offerAmountError(amount)).toBe(error);
  });
});

describe('latestOffer', () => {
  const given = (at: number) => ({ move_id: `m${at}`, amount: 5, currency: 'POINTS', at });
  it('is the newer of the two, or whichever is known', () => {
    expect(latestOffer(given(1), given(2))).toEqual(given(2));
    expect(latestOffer(given(3), given(2))).toEqual(given(3));
    expect(latestOffer(null, given(2))).toEqual(given(2));
    expect(latestOffer(undefined, null)).toBeNull();
  });
});

describe('offerSourceText', () => {
  const split = (from_held: number, from_available: number) => ({ currency: 'POINTS', total: from_held + from_available, from_held, from_available });
  it('names the held reward when it pays all, the wallet when nothing is held, and both amounts when each pays a part', () => {
    expect(offerSourceText(split(44, 0))).toBe('from the reward held for this post');
    expect(offerSourceText(split(0, 10))).toBe('from your Points wallet');
    expect(offerSourceText(split(3, 2.5))).toBe('🪙 3 from the reward held for this post and 🪙 2.50 from your Points wallet');
  });

  it('reads a split without the held fields (a server from before holds) as paid from the wallet', () => {
    expect(offerSourceText({ currency: 'EUR', total: 5 })).toBe('from your Euro wallet');
  });
});

describe('offerCurrency', () => {
  it("is the post's currency, points when it names none", () => {
    expect(offerCurrency('USD')).toBe('USD');
    expect(offerCurrency(null)).toBe('POINTS');
    expect(offerCurrency('')).toBe('POINTS');
  });
});

describe('offerFailure', () => {
  it('reads the two short-balance answers and leaves the rest as errors', () => {
    expect(offerFailure(shortOfDollars)).toEqual({ kind: 'need_stripe_recharge', amount: 5, currency: 'USD' });
    expect(offerFailure(shortOfPoints)).toEqual({ kind: 'need_recharge', message: 'You have 3 points; this offer needs 20.' });
    expect(offerFailure(refused)).toEqual({ kind: 'error', error: refused });
    expect(offerFailure(networkError)).toEqual({ kind: 'error', error: networkError });
  });

  it('does not take a malformed recharge answer for one', () => {
    const malformed: ApiError = { status: 402, errors: { need_stripe_recharge: { amount: '5' } } };
    expect(offerFailure(malformed).kind).toBe('error');
  });
});

describe('offerReducer', () => {
  it("goes straight to the confirmation with the post's amount, as it is", () => {
    const state = run([{ type: 'press', itemAmount: 0.2 }]);
    expect(state).toMatchObject({ step: 'confirming', amount: 0.2 });
  });

  it('prompts for an amount when the post has none, then confirms the typed one', () => {
    const prompting = run([{ type: 'press', itemAmount: null }]);
    expect(prompting.step).toBe('prompting');
    const confirming = offerReducer(prompting, { type: 'enter', amount: 7 });
    expect(confirming).toMatchObject({ step: 'confirming', amount: 7, typed: 7 });
  });

  it('sends with a fresh request id once confirmed, and starts over once given', () => {
    const sending = run([{ type: 'press', itemAmount: 3 }, { type: 'confirm', freshRequestId: 'id-1' }]);
    expect(sending).toMatchObject({ step: 'sending', attempt: { requestId: 'id-1', amount: 3 } });
    expect(offerReducer(sending, { type: 'given' })).toEqual(initialOfferState);
  });

  it('retries an offer whose outcome is unknown with the same request id', () => {
    const lost = run([
      { type: 'press', itemAmount: 3 },
      { type: 'confirm', freshRequestId: 'id-1' },
      { type: 'failed', error: networkError },
    ]);
    expect(lost).toMatchObject({ step: 'idle', attempt: { requestId: 'id-1' } });
    const retried = run([{ type: 'press', itemAmount: 3 }, { type: 'confirm', freshRequestId: 'id-2' }], lost);
    expect(retried.attempt).toEqual({ requestId: 'id-1', amount: 3 });

    const afterServerError = run([{ type: 'failed', error: serverError }, { type: 'press', itemAmount: 3 }, { type: 'confirm', freshRequestId: 'id-3' }], retried);
    expect(afterServerError.attempt?.requestId).toBe('id-1');
  });

  it('uses a new request id after a clear refusal, after success, or for another amount', () => {
    const refusedThenAgain = run([
      { type: 'press', itemAmount: 3 },
      { type: 'confirm', freshRequestId: 'id-1' },
      { type: 'failed', error: shortOfDollars },
      { type: 'press', itemAmount: 3 },
      { type: 'confirm', freshRequestId: 'id-2' },
    ]);
    expect(refusedThenAgain.attempt?.requestId).toBe('id-2');

    const givenThenAgain = run([{ type: 'given' }, { type: 'press', itemAmount: 3 }, { type: 'confirm', freshRequestId: 'id-3' }], refusedThenAgain);
    expect(givenThenAgain.attempt?.requestId).toBe('id-3');

    const lostThenOtherAmount = run([
      { type: 'press', itemAmount: null },
      { type: 'enter', amount: 4 },
      { type: 'confirm', freshRequestId: 'id-4' },
      { type: 'failed', error: networkError },
      { type: 'press', itemAmount: 6 },
      { type: 'confirm', freshRequestId: 'id-5' },
    ]);
    expect(lostThenOtherAmount.attempt).toEqual({ requestId: 'id-5', amount: 6 });
  });

  it('keeps the short balance for the Need Recharge link until the next press', () => {
    const short = run([{ type: 'press', itemAmount: 9 }, { type: 'confirm', freshRequestId: 'id-1' }, { type: 'failed', error: shortOfDollars }]);
    expect(short).toMatchObject({ step: 'idle', attempt: null, failure: { kind: 'need_stripe_recharge', amount: 5, currency: 'USD' } });
    expect(offerReducer(short, { type: 'press', itemAmount: 9 }).failure).toBeNull();
  });

  it('remembers a typed amount after a failure instead of prompting again, and forgets it once given', () => {
    const failed = run([
      { type: 'press', itemAmount: null },
      { type: 'enter', amount: 4 },
      { type: 'confirm', freshRequestId: 'id-1' },
      { type: 'failed', error: networkError },
    ]);
    expect(offerReducer(failed, { type: 'press', itemAmount: null })).toMatchObject({ step: 'confirming', amount: 4 });
    const given = run([{ type: 'press', itemAmount: null }, { type: 'confirm', freshRequestId: 'x' }, { type: 'given' }], failed);
    expect(offerReducer(given, { type: 'press', itemAmount: null }).step).toBe('prompting');
  });

  it('cancel closes the prompt or the confirmation without sending', () => {
    expect(run([{ type: 'press', itemAmount: null }, { type: 'cancel' }]).step).toBe('idle');
    expect(run([{ type: 'press', itemAmount: 2 }, { type: 'cancel' }])).toMatchObject({ step: 'idle', attempt: null });
  });

  it('ignores presses and confirmations while an offer is being sent', () => {
    const sending = run([{ type: 'press', itemAmount: 3 }, { type: 'confirm', freshRequestId: 'id-1' }]);
    expect(offerReducer(sending, { type: 'press', itemAmount: 3 })).toBe(sending);
    expect(offerReducer(sending, { type: 'confirm', freshRequestId: 'id-2' })).toBe(sending);
    expect(offerReducer(initialOfferState, { type: 'confirm', freshRequestId: 'id-2' })).toBe(initialOfferState);
  });
});

describe('offerRecipient', () => {
  const chat = (id: string, data: { item_id?: string; owner_id?: string; user_id?: string; item_deleted?: boolean }) => ({ _id: id, data });

  it("lets the post's owner give to the other participant of an item chat", () => {
    expect(offerRecipient(chat('r_i1_u2', { item_id: 'i1', owner_id: 'u1', user_id: 'u2' }), 'u1')).toEqual({ itemId: 'i1', recipientId: 'u2' });
  });

  it('offers nothing to the other participant, visitors, group chats or oneself', () => {
    const itemChat = chat('r_i1_u2', { item_id: 'i1', owner_id: 'u1', user_id: 'u2' });
    expect(offerRecipient(itemChat, 'u2')).toBeNull();
    expect(offerRecipient(itemChat, null)).toBeNull();
    expect(offerRecipient(chat('g1', { item_id: 'i1', owner_id: 'u1', user_id: 'u2' }), 'u1')).toBeNull();
    expect(offerRecipient(chat('r_i1_u1', { item_id: 'i1', owner_id: 'u1', user_id: 'u1' }), 'u1')).toBeNull();
  });

  it('offers nothing once the post was deleted', () => {
    expect(offerRecipient(chat('r_i1_u2', { item_id: 'i1', owner_id: 'u1', user_id: 'u2', item_deleted: true }), 'u1')).toBeNull();
  });
});
