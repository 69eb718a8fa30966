import { describe, expect, it } from 'vitest';
import { profileHint } from './profileHint';

describe('profileHint', () => {
  it('maps the payout onboarding return params to their banners', () => {
    expect(profileHint(new URLSearchParams('can_withdraw=1'))).toBe('You can withdraw your money now');
    expect(profileHint(new URLSearchParams('retry_withdraw=1'))).toBe('Please retry withdraw option again');
  });

  it('shows nothing for other params', () => {
    expect(profileHint(new URLSearchParams())).toBeNull();
    expect(profileHint(new URLSearchParams('withdraw=1'))).toBeNull();
  });
});
