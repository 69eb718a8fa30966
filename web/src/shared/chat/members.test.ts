import { describe, expect, it } from 'vitest';
import { isModerator, moderationActions } from './members';

describe('moderation menu', () => {
  it.each([
    [10, 30, ['approve', 'reject']],
    [15, 30, ['approve', 'reject']],
    [10, 20, ['block', 'make_moderator']],
    [15, 20, ['block']],
    [10, 15, ['block']],
    [10, 29, ['unblock']],
    [10, 40, []],
    [10, 10, []],
    [15, 15, []],
    [15, 10, []],
    [20, 20, []],
    [null, 30, []],
  ] as const)('a %s acting on a %s gets %j', (actor, target, actions) => {
    expect(moderationActions(actor, target)).toEqual(actions);
  });

  it('counts types up to 15 as moderators', () => {
    expect([10, 15, 20, null].map(isModerator)).toEqual([true, true, false, false]);
  });
});
