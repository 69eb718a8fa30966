import { useState } from 'react';
import { INVALID_GROUP_TEXT, MEMBER_TYPES } from '../../shared/constants';
import { NON_MEMBERS_CAN_READ_TEXT, PRIVATE_GROUP_TAG, PUBLIC_GROUP_TAG } from './constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Avatar } from '../../shared/ui/Avatar';
import { Button } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { useUi } from '../../shared/ui/uiContext';
import { openLogin } from '../../shared/session/login';
import { useCurrentUser } from '../../shared/session/currentUser';
import { withheldLabel } from '../../shared/entities/memberTypes';
import type { GroupMembership } from '../../shared/entities/group';
import { fetchInvitation, joinGroup, type Invitation } from './groupApi';

/**
 * A group the viewer may not read (private, or no group at all: the server does not tell
 * visitors which). A signed-in person holding the link of one that exists sees which group it
 * is and may ask to join; everyone else gets the spec's sentence, visitors with a login.
 * `onReadable`: the group lets them read it now (their request was approved meanwhile).
 */
export function GroupInvitation({ groupId, onReadable }: { groupId: string; onReadable: () => void }) {
  const { user } = useCurrentUser();
  const invitation = useAsyncData(`${groupId}/${user?._id ?? ''}`, (signal) => (user ? fetchInvitation(groupId, signal) : Promise.resolve(null)));
  if (!user) {
    return (
      <EmptyState icon="🔒" title={INVALID_GROUP_TEXT} description="Invited to a private group? Log in to ask to join.">
        <Button onClick={() => openLogin()}>Login</Button>
      </EmptyState>
    );
  }
  if (invitation.status === 'loading') return <Loading />;
  if (invitation.status === 'error' || invitation.data === null) return <EmptyState icon="🔒" title={INVALID_GROUP_TEXT} />;
  return <InvitationCard key={invitation.data.group._id} invitation={invitation.data} onReadable={onReadable} />;
}

function InvitationCard({ invitation: { group, group_membership }, onReadable }: { invitation: Invitation; onReadable: () => void }) {
  const ui = useUi();
  const [membership, setMembership] = useState<GroupMembership | null>(group_membership);
  const ask = useAsyncAction(async () => {
    try {
      const reply = await joinGroup(group._id);
      if (reply.group) onReadable();
      else setMembership(reply.group_membership);
    } catch (error) {
      ui.showError(error);
    }
  });
  const state = withheldLabel(membership?.session_user_type);
  return (
    <section aria-labelledby="invitation-title" className="mx-auto flex max-w-md flex-col items-center rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-8">
      <Avatar name={group.title} image={group.image} size={72} />
      <h1 id="invitation-title" className="mt-4 text-2xl font-bold tracking-tight break-words">
        {group.title}
      </h1>
      <div className="mt-2 flex flex-wrap justify-center gap-1.5 text-xs font-medium">
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">{group.is_public ? PUBLIC_GROUP_TAG : PRIVATE_GROUP_TAG}</span>
        {!group.is_public && group.is_read_allowed && <span className="rounded-full bg-amber-50 px-2 py-0.5 text-amber-800">{NON_MEMBERS_CAN_READ_TEXT}</span>}
      </div>
      <p className="mt-4 text-sm text-slate-600">Only its members see its posts and who is in it.</p>
      {state === null ? (
        <Button className="mt-5" busy={ask.busy} onClick={() => void ask.run()}>
          Ask to join
        </Button>
      ) : (
        <p role="status" className="mt-5 rounded-full bg-amber-50 px-3 py-1 text-sm font-semibold text-amber-900">
          {state}
        </p>
      )}
      {membership?.session_user_type === MEMBER_TYPES.awaitingApproval && (
        <p className="mt-2 text-sm text-slate-500">The group’s admins see your request. Once they approve it, its posts open here.</p>
      )}
    </section>
  );
}
