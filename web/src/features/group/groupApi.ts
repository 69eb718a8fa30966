import { api } from '../../shared/api';
import type { Group, GroupReply } from '../../shared/entities/group';

/** What the group form sends, on creation and on edit. */
export type GroupFields = Pick<Group, 'title' | 'description' | 'image' | 'is_public' | 'is_read_allowed' | 'write_permission'> & { tags: string[] };

export function createGroup(fields: GroupFields): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', fields, { query: { action: 'create' } });
}

export function joinGroup(groupId: string): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId }, { query: { action: 'join' } });
}

export function updateGroup(groupId: string, changes: GroupFields): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId, ...changes }, { query: { action: 'update' } });
}

export function manageSubscription(groupId: string): Promise<{ redirect_url: string }> {
  return api.post<{ redirect_url: string }>('/api/group', { group_id: groupId }, { query: { action: 'manage_subscription' } });
}
