import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime';

describe('relativeTime', () => {
  const now = Date.UTC(2025, 0, 10);
  it('uses the largest unit that fits', () => {
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(relativeTime(now - 24 * 3600_000, now)).toBe('yesterday');
    expect(relativeTime(now - 2 * 365 * 24 * 3600_000, now)).toBe('2 years ago');
    expect(relativeTime(now, now)).toBe('now');
  });
});
