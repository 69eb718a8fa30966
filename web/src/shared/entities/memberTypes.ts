import { MEMBER_TYPES } from '../constants';

/** What a membership type is called on the group screen (the viewer's own and the members list). */
const LABELS: Record<number, string> = {
  [MEMBER_TYPES.admin]: 'Admin',
  [MEMBER_TYPES.moderator]: 'Moderator',
  [MEMBER_TYPES.member]: 'Member',
  [MEMBER_TYPES.blockedReversible]: 'Blocked',
  [MEMBER_TYPES.awaitingApproval]: 'Awaiting approval',
};

export function memberTypeLabel(type: number | null | undefined): string | null {
  return type == null ? null : (LABELS[type] ?? null);
}

/**
 * What a chat list row says in place of the messages of a chat its member may not read (the server sends none of
 * them): their request to join or their block. Null for those who read it.
 */
export function withheldLabel(type: number | null | undefined): string | null {
  if (type == null || type <= MEMBER_TYPES.member) return null;
  return memberTypeLabel(type) ?? memberTypeLabel(MEMBER_TYPES.blockedReversible);
}

/** Each member's role or state in the members list (types 40 and above are blocked for good). */
export function memberListLabel(type: number): string {
  return memberTypeLabel(type) ?? memberTypeLabel(MEMBER_TYPES.blockedReversible)!;
}
