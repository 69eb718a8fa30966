import { describe, expect, it } from 'vitest';
import { profileHint } from './profileHint';
import { leftAfter, resumedWithdrawal, wholeBalanceText, withdrawalRefusal } from './withdraw';
import { hasMoneyToWithdraw } from './wallets';

const euros = (amount: number) => ({ user_id: 'u1', wallet_for: 'user', wallet_currency: 'EUR', wallet_amount: amount });

describe('withdrawal amount', () => {
  it('starts as the whole balance, written as one would type it', () => {
    expect(wholeBalanceText(euros(30))).toBe('30');
    expect(wholeBalanceText(euros(12.5))).toBe('12.50');
  });

  it('takes up to the balance and refuses more, saying how much there is', () => {
    expect(withdrawalRefusal(12.5, euros(12.5))).toBeNull();
    expect(withdrawalRefusal(5, euros(12.5))).toBeNull();
    expect(withdrawalRefusal(12.51, euros(12.5))).toBe('You can withdraw at most €12.50');
  });

  it('counts what stays in cents', () => {
    expect(leftAfter(euros(10.3), 0.3)).toBe(10);
    expect(leftAfter(euros(30), 12.5)).toBe(17.5);
  });

});

describe('after a withdrawal', () => {
  it('an empty money wallet has nothing to withdraw, and the payout banners say nothing', () => {
    expect(hasMoneyToWithdraw(euros(0))).toBe(false);
    expect(hasMoneyToWithdraw(euros(0.01))).toBe(true);
    expect(profileHint(new URLSearchParams('can_withdraw=1'), [euros(0)])).toBeNull();
    expect(profileHint(new URLSearchParams('retry_withdraw=1'), [euros(0)])).toBeNull();
    expect(profileHint(new URLSearchParams('can_withdraw=1'), [euros(3)])).toBe('You can withdraw your money now');
  });
});

describe('a withdrawal resumed after the payout set-up', () => {
  const back = (query: string) => new URLSearchParams(query);
  const wallets = [{ ...euros(12.5) }, { ...euros(100), wallet_currency: 'POINTS' }];

  it('is the amount asked for, from the wallet of its currency', () => {
    expect(resumedWithdrawal(back('can_withdraw=1&withdraw_currency=EUR&withdraw_amount=5'), wallets)).toEqual({ currency: 'EUR', amount: 5 });
  });

  it('asks for the amount again when none came back, or it is more than the wallet now holds, or not a number', () => {
    for (const amount of ['', '&withdraw_amount=13', '&withdraw_amount=abc', '&withdraw_amount=-1']) {
      expect(resumedWithdrawal(back(`withdraw_currency=EUR${amount}`), wallets)).toEqual({ currency: 'EUR', amount: null });
    }
  });

  it('is nothing without a wallet of that currency holding money, or without a withdrawal asked for', () => {
    expect(resumedWithdrawal(back('withdraw_currency=USD&withdraw_amount=5'), wallets)).toBeNull();
    expect(resumedWithdrawal(back('withdraw_currency=POINTS&withdraw_amount=5'), wallets)).toBeNull();
    expect(resumedWithdrawal(back('withdraw_currency=EUR&withdraw_amount=5'), [euros(0)])).toBeNull();
    expect(resumedWithdrawal(back('can_withdraw=1'), wallets)).toBeNull();
  });
});
