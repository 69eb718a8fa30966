import { describe, expect, it } from 'vitest';
import type { Wallet } from '../../shared/entities/wallet';
import { profileHint } from './profileHint';

const wallet = (currency: string): Wallet => ({ user_id: 'u1', wallet_for: 'user', wallet_currency: currency, wallet_amount: 1 });
const withMoney = [wallet('POINTS'), wallet('USD')];

describe('profileHint', () => {
  it('maps the payout onboarding return params to their banners', () => {
    expect(profileHint(new URLSearchParams('can_withdraw=1'), withMoney)).toBe('You can withdraw your money now');
    expect(profileHint(new URLSearchParams('retry_withdraw=1'), withMoney)).toBe('Please retry withdraw option again');
  });

  it('shows nothing for other params', () => {
    expect(profileHint(new URLSearchParams(), withMoney)).toBeNull();
    expect(profileHint(new URLSearchParams('withdraw=1'), withMoney)).toBeNull();
  });

  it('shows nothing to someone holding only points, which cannot be withdrawn', () => {
    expect(profileHint(new URLSearchParams('can_withdraw=1'), [wallet('POINTS')])).toBeNull();
    expect(profileHint(new URLSearchParams('can_withdraw=1'), [])).toBeNull();
  });
});
