import { describe, expect, it } from 'vitest';
import { outcomeUnknown, parseAmountText, upsertWallet } from './wallets';

const wallet = (currency: string, amount: number) => ({ user_id: 'u1', wallet_for: 'user', wallet_currency: currency, wallet_amount: amount });

describe('upsertWallet', () => {
  it('replaces the changed wallet in place', () => {
    const list = [wallet('POINTS', 100), wallet('USD', 5)];
    expect(upsertWallet(list, wallet('USD', 15))).toEqual([wallet('POINTS', 100), wallet('USD', 15)]);
  });

  it('adds a new wallet keeping points first and currencies in order', () => {
    const list = [wallet('POINTS', 100), wallet('USD', 5)];
    const added = upsertWallet(list, wallet('EUR', 3));
    expect(added.map((w) => w.wallet_currency)).toEqual(['POINTS', 'EUR', 'USD']);
    expect(upsertWallet([wallet('USD', 5)], wallet('POINTS', 1)).map((w) => w.wallet_currency)).toEqual(['POINTS', 'USD']);
  });
});

describe('outcomeUnknown', () => {
  it('is true without a reply or on a server failure, false on a stated refusal', () => {
    expect(outcomeUnknown({ status: 0, errors: 'offline' })).toBe(true);
    expect(outcomeUnknown({ status: 503, errors: 'busy' })).toBe(true);
    expect(outcomeUnknown(new TypeError('boom'))).toBe(true);
    expect(outcomeUnknown({ status: 402, errors: { need_recharge: 'short' } })).toBe(false);
    expect(outcomeUnknown({ status: 400, errors: 'bad' })).toBe(false);
  });
});

describe('parseAmountText', () => {
  it('reads positive amounts with at most 2 decimals, a decimal comma too', () => {
    expect(parseAmountText(' 10 ')).toEqual({ amount: 10 });
    expect(parseAmountText('2,5')).toEqual({ amount: 2.5 });
    expect(parseAmountText('0.01')).toEqual({ amount: 0.01 });
  });

  it('refuses anything else', () => {
    for (const text of ['', '0', '-1', '1.001', 'ten', '1e2', 'Infinity']) {
      expect(parseAmountText(text)).toHaveProperty('error');
    }
  });
});
