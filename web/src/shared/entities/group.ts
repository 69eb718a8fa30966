import { api } from '../api';
import { MEMBER_TYPES } from '../constants';

export interface Group {
  _id: string;
  title: string;
  description: string;
  image: string;
  is_public: boolean;
  is_read_allowed: boolean;
  write_permission: number;
  created_at: number;
  /** The viewer's membership type, null when not a member. */
  session_user_type: number | null;
  can_write: boolean;
  /** subscription_status 1: the group's paid subscription is active. */
  data: { tags: string[]; num_posts: number; num_members: number; city?: unknown; subscription_status?: number };
}

/** The viewer's membership of a group: their type (awaiting approval, blocked, a member...). */
export interface GroupMembership {
  session_user_type: number;
}

export interface GroupReply {
  group: Group;
  group_membership?: GroupMembership | null;
}

/** The server's code for a group the viewer may not see (an unknown id, or a private group). */
export function isInvalidGroupError(errors: unknown): boolean {
  return typeof errors === 'object' && errors !== null && 'invalid_group' in errors;
}

/** The group of the city nearest to the point, created on first use. */
export function groupNear(latLong: readonly [number, number]): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { lat_long: latLong });
}

export function fetchGroup(groupId: string, signal?: AbortSignal): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId }, { signal });
}

/** The server's refusal of a post (http: 403), and the post form's title for whoever it would refuse. */
export const CANNOT_POST_TEXT = 'You cannot post in this group';

/**
 * Why the viewer may not post in the group, from what the server said of them (`can_write`,
 * their membership type, the group's write permission); null when they may. Told before the
 * post form is filled, not after it is sent.
 */
export function whyCannotPost(group: Pick<Group, 'can_write' | 'session_user_type' | 'write_permission' | 'is_public'>): string | null {
  if (group.can_write) return null;
  const type = group.session_user_type;
  if (type === MEMBER_TYPES.awaitingApproval) return 'Your request to join is awaiting approval: you can post once a moderator approves it.';
  if (type !== null && type > MEMBER_TYPES.member) return 'A moderator of this group blocked you.';
  if (type === null && !group.is_public) return 'Only its members post here: ask to join on the group’s page.';
  return group.write_permission <= MEMBER_TYPES.admin ? 'Only the group’s admins post here.' : 'Only the group’s admins and moderators post here.';
}
