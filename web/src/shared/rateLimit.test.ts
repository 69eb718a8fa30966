import { expect, it } from 'vitest';
import { createRateLimiter } from './rateLimit';

it('allows at most N events per sliding window', () => {
  let now = 0;
  const allow = createRateLimiter(2, 1000, () => now);
  expect([allow(), allow(), allow()]).toEqual([true, true, false]);
  now = 999;
  expect(allow()).toBe(false);
  now = 1000;
  expect([allow(), allow(), allow()]).toEqual([true, true, false]);
});
