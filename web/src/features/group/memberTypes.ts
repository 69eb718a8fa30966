import { MEMBER_TYPES } from '../../shared/constants';

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

/** In the members list plain members go unlabelled; everyone else's role or state shows. */
export function memberListLabel(type: number): string | null {
  return type === MEMBER_TYPES.member ? null : memberTypeLabel(type);
}
