import { api } from '../../shared/api';
import type { Group, GroupMembership, GroupReply } from '../../shared/entities/group';

/** What the group form sends, on creation and on edit. */
export type GroupFields = Pick<Group, 'title' | 'description' | 'image' | 'is_public' | 'is_read_allowed' | 'write_permission'> & { tags: string[] };

export function createGroup(fields: GroupFields): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', fields, { query: { action: 'create' } });
}

/** The reply to Join: the group, or null while the asker may not read it (a private group's request, awaiting approval). */
export interface JoinReply {
  group: Group | null;
  group_membership: GroupMembership;
}

export function joinGroup(groupId: string): Promise<JoinReply> {
  return api.post<JoinReply>('/api/group', { group_id: groupId }, { query: { action: 'join' } });
}

/** What a group's link shows a signed-in person who may not read the group: enough to know it, nothing of its content. */
export interface Invitation {
  group: Pick<Group, '_id' | 'title' | 'image' | 'is_public' | 'is_read_allowed'>;
  group_membership: GroupMembership | null;
}

export function fetchInvitation(groupId: string, signal?: AbortSignal): Promise<Invitation> {
  return api.post<Invitation>('/api/group', { group_id: groupId }, { query: { action: 'invitation' }, signal });
}

export function updateGroup(groupId: string, changes: GroupFields): Promise<GroupReply> {
  return api.post<GroupReply>('/api/group', { group_id: groupId, ...changes }, { query: { action: 'update' } });
}

export function manageSubscription(groupId: string): Promise<{ redirect_url: string }> {
  return api.post<{ redirect_url: string }>('/api/group', { group_id: groupId }, { query: { action: 'manage_subscription' } });
}
