import { api } from '../api';

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
