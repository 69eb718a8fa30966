import { describe, expect, it } from 'vitest';
import { finderFeeExample, finderFeePool, FINDER_FEE_RULE_TEXT, shareEarningsText } from './finderFee';

describe('finderFeeExample', () => {
  it("tells the server's worked example: with two sharers the first takes what the nearest leaves, the same half", () => {
    expect(finderFeeExample()).toEqual({
      intro: 'A reward of 🪙 100 with a 10% finder’s fee: the poster pays 🪙 10 on top.',
      chains: [
        'Shared by Ann: Ann gets 🪙 10.',
        'Shared by Ann, then Ben: Ben gets 🪙 5, Ann 🪙 5.',
        'Shared by Ann, Ben, then Cleo: Cleo gets 🪙 5, Ben 🪙 2.50, Ann 🪙 2.50.',
      ],
    });
  });

  it('names whatever chains and amounts it is given, nearest the helper first', () => {
    const told = finderFeeExample({ offer: 40, currency: 'EUR', percent: 25, pool: 10, chains: [[2.5, 2.5, 5]] });
    expect(told.intro).toBe('A reward of €40 with a 25% finder’s fee: the poster pays €10 on top.');
    expect(told.chains).toEqual(['Shared by Ann, Ben, then Cleo: Cleo gets €5, Ben €2.50, Ann €2.50.']);
  });

  it('says how many sharers are paid at most', () => {
    expect(FINDER_FEE_RULE_TEXT).toContain('At most the 5 sharers nearest the helper are paid.');
  });
});

describe('finderFeePool', () => {
  it('rounds down to the cent', () => {
    expect(finderFeePool(9.99, 10)).toBe(0.99);
  });
});

describe('shareEarningsText', () => {
  it("promises the server's figure for the reader's own link, with the reward it is a part of", () => {
    expect(shareEarningsText({ amount: 2.5, currency: 'POINTS', offer_amount: 50 })).toBe(
      'Share your link: if the helper comes through it and is paid the 🪙 50 reward, you earn 🪙 2.50.',
    );
    expect(shareEarningsText({ amount: 1, currency: 'EUR', offer_amount: 20 })).toBe(
      'Share your link: if the helper comes through it and is paid the €20 reward, you earn €1.',
    );
  });
});
