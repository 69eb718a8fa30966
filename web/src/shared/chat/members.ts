import { api } from '../api';
import { MEMBER_TYPES, MODERATION_ACTIONS } from '../constants';
import type { ChatUser } from './types';

/** A member of a group or chat (both are sessions), with their public card. */
export interface SessionUser {
  session_id: string;
  user_id: string;
  session_user_type: number;
  notification_flag: number;
  user: ChatUser;
  /** What the member's app reported about itself; shown to moderators. */
  data: { app?: unknown };
}

export interface SessionUsersPage {
  session_users: SessionUser[];
  has_more: boolean;
  cursor: string | null;
  session_users_count: number;
}

/** What a moderator may do to a member, as the server names it. */
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface SessionUserReply {
  is_user_in_session: boolean;
  session_user: SessionUser;
}

export function fetchSessionUsers(sessionId: string, cursor?: string): Promise<SessionUsersPage> {
  return api.post('/session/users', { session_id: sessionId, cursor });
}

export function moderate(sessionId: string, forUserId: string, action: ModerationAction): Promise<SessionUserReply> {
  return api.post('/session/user/update', { session_id: sessionId, for_user_id: forUserId, action });
}

export function isModerator(type: number | null | undefined): boolean {
  return type !== null && type !== undefined && type <= MEMBER_TYPES.moderator;
}

/** What a moderator may do to a member, by both their membership types (spec sections 4 and 6). */
export function moderationActions(actorType: number | null | undefined, targetType: number): ModerationAction[] {
  // Nobody moderates themselves or anyone of their own rank or above (the server refuses too).
  if (!isModerator(actorType) || targetType <= actorType!) return [];
  const actions: ModerationAction[] = [];
  if (targetType === MEMBER_TYPES.awaitingApproval) actions.push('approve', 'reject');
  if (targetType <= MEMBER_TYPES.member) actions.push('block');
  if (targetType === MEMBER_TYPES.blockedReversible) actions.push('unblock');
  if (actorType === MEMBER_TYPES.admin && targetType === MEMBER_TYPES.member) actions.push('make_moderator');
  return actions;
}
