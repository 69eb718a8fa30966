import { describe, expect, it } from 'vitest';
import { whyCannotPost } from './group';

const group = (fields: Partial<Parameters<typeof whyCannotPost>[0]>) => ({ can_write: false, session_user_type: 20, write_permission: 20, is_public: true, ...fields });

describe('whyCannotPost', () => {
  it('says nothing to whoever may post', () => {
    expect(whyCannotPost(group({ can_write: true }))).toBeNull();
  });

  it('tells a blocked member they were blocked, whether the block can be undone or not', () => {
    for (const type of [29, 40, 50]) expect(whyCannotPost(group({ session_user_type: type }))).toBe('A moderator of this group blocked you.');
  });

  it('tells one who asked to join that the request waits', () => {
    expect(whyCannotPost(group({ session_user_type: 30, is_public: false }))).toBe('Your request to join is awaiting approval: you can post once a moderator approves it.');
  });

  it("sends a stranger to a private group's page to ask to join", () => {
    expect(whyCannotPost(group({ session_user_type: null, is_public: false }))).toBe('Only its members post here: ask to join on the group’s page.');
  });

  it('names who may post where the group limits it', () => {
    expect(whyCannotPost(group({ write_permission: 10 }))).toBe('Only the group’s admins post here.');
    expect(whyCannotPost(group({ write_permission: 15, session_user_type: null }))).toBe('Only the group’s admins and moderators post here.');
  });
});
