import { api } from '../../shared/api';
import type { Group, GroupReply } from '../../shared/entities/group';

export interface Member {
  session_id: string;
  user_id: string;
  session_user_type: number;
  user: { _id: string; name: string; image: string };
}

export interface MembersPage {
  session_users: Member[];
  has_more: boolean;
  cursor: string | null;
  session_users_count: number;
}

export type GroupChanges = Partial<Pick<Group, 'title' | 'description' | 'image' | 'is_public' | 'is_read_allowed'>> & { tags?: string[] };

export function joinGroup(groupId: string): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId }, { query: { action: 'join' } });
}

export function updateGroup(groupId: string, changes: GroupChanges): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId, ...changes }, { query: { action: 'update' } });
}

export function fetchMembers(groupId: string, cursor?: string): Promise<MembersPage> {
  return api.post<MembersPage>('/session/users', { session_id: groupId, cursor });
}

export function manageSubscription(groupId: string): Promise<{ redirect_url: string }> {
  return api.post<{ redirect_url: string }>('/api/group', { group_id: groupId }, { query: { action: 'manage_subscription' } });
}
