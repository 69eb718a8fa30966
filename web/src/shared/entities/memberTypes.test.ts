import { describe, expect, it } from 'vitest';
import { memberListLabel, memberTypeLabel, withheldLabel } from './memberTypes';

describe('member type labels', () => {
  it('names the viewer’s own membership, and nothing for a non-member or an unknown type', () => {
    expect(memberTypeLabel(20)).toBe('Member');
    expect(memberTypeLabel(30)).toBe('Awaiting approval');
    expect(memberTypeLabel(null)).toBeNull();
    expect(memberTypeLabel(99)).toBeNull();
  });

  it('labels everyone in the members list with their role', () => {
    expect(memberListLabel(10)).toBe('Admin');
    expect(memberListLabel(15)).toBe('Moderator');
    expect(memberListLabel(20)).toBe('Member');
    expect(memberListLabel(29)).toBe('Blocked');
    expect(memberListLabel(40)).toBe('Blocked');
  });

  it('name why a chat list row shows no messages, for those who may not read the chat', () => {
    expect(withheldLabel(30)).toBe('Awaiting approval');
    expect(withheldLabel(29)).toBe('Blocked');
    expect(withheldLabel(40)).toBe('Blocked');
    expect(withheldLabel(20)).toBeNull();
    expect(withheldLabel(null)).toBeNull();
  });
});
