import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { GROUP_POSTS_TITLE, NON_MEMBERS_CAN_READ_TEXT, PRIVATE_GROUP_TAG, PUBLIC_GROUP_TAG } from './constants';
import { MEMBER_TYPES, groupSettingsPath, recentGroupPath, groupWhatsappPath } from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Button, buttonClass } from '../../shared/ui/Button';
import { useUi } from '../../shared/ui/uiContext';
import { openLogin } from '../../shared/session/login';
import { useCurrentUser } from '../../shared/session/currentUser';
import { MembersList } from '../../shared/chat/MembersList';
import { isModerator } from '../../shared/chat/members';
import { fetchGroup, isInvalidGroupError, type Group } from '../../shared/entities/group';
import { isApiError } from '../../shared/errors';
import { recentGroups } from '../../shared/rememberedGroup';
import { Feed } from '../feed';
import { ReportedReviewsLink } from '../reviews';
import { GroupInvitation } from './GroupInvitation';
import { GroupSubscription } from './GroupSubscription';
import { joinGroup } from './groupApi';
import { memberTypeLabel } from '../../shared/entities/memberTypes';

/** /group/:groupId: the group's details beside its posts. */
export function GroupPage() {
  const { groupId = '' } = useParams();
  const { user } = useCurrentUser();
  // Reloaded on login: membership and admin rights belong to the viewer.
  const group = useAsyncData(`${groupId}/${user?._id ?? ''}`, (signal) => fetchGroup(groupId, signal));
  if (group.status === 'error' && isApiError(group.error) && isInvalidGroupError(group.error.errors)) {
    // Nothing of a group the viewer may not read: its posts and members stay its own.
    return (
      <div className="mx-auto max-w-xl px-4 py-6 sm:py-10">
        <GroupInvitation groupId={groupId} onReadable={group.reload} />
      </div>
    );
  }
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-6 sm:py-10 lg:grid-cols-[1fr_18rem]">
      <div className="min-w-0 lg:order-2">{group.status === 'success' && <GroupPanel key={group.data.group._id} initial={group.data.group} />}</div>
      <div className="min-w-0 lg:order-1">
        <Feed key={groupId} groupId={groupId} title={GROUP_POSTS_TITLE} />
      </div>
    </div>
  );
}

function GroupPanel({ initial }: { initial: Group }) {
  const ui = useUi();
  const { user } = useCurrentUser();
  const [group, setGroup] = useState(initial);
  const isMember = group.session_user_type !== null;

  const join = useAsyncAction(async () => {
    try {
      const reply = await joinGroup(group._id);
      // Join is offered on groups the viewer reads, which they read once in.
      if (reply.group) setGroup(reply.group);
    } catch (error) {
      ui.showError(error);
    }
  });

  return (
    <aside className="space-y-5 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-start gap-3">
        {group.image && <img src={group.image} alt="" className="size-14 shrink-0 rounded-2xl bg-slate-100 object-cover" />}
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-lg font-bold">{group.title}</h2>
          <div className="mt-1 flex flex-wrap gap-1.5 text-xs font-medium">
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">{group.is_public ? PUBLIC_GROUP_TAG : PRIVATE_GROUP_TAG}</span>
            {!group.is_public && group.is_read_allowed && (
              <span className="rounded-full bg-amber-50 px-2 py-0.5 text-amber-800">{NON_MEMBERS_CAN_READ_TEXT}</span>
            )}
            {isMember && <span className="rounded-full bg-brand-50 px-2 py-0.5 text-brand-700">{memberTypeLabel(group.session_user_type)}</span>}
          </div>
        </div>
      </div>
      {group.description && <p className="text-sm whitespace-pre-line text-slate-600">{group.description}</p>}
      <p className="text-sm text-slate-500">{group.data.num_posts} posts</p>
      {/* Hidden when a member has no action here, so it leaves no gap. */}
      <div className="flex flex-wrap gap-2 empty:hidden">
        {group.session_user_type === MEMBER_TYPES.admin && (
          <>
            <Link to={groupSettingsPath(group._id)} className={buttonClass('secondary', 'sm')}>
              Settings
            </Link>
            <Link to={groupWhatsappPath(group._id)} className={buttonClass('secondary', 'sm')}>
              WhatsApp
            </Link>
          </>
        )}
        {isModerator(group.session_user_type) && <ReportedReviewsLink groupId={group._id} />}
        {!isMember && (
          <Button size="sm" busy={join.busy} onClick={() => (user ? void join.run() : openLogin())}>
            Join
          </Button>
        )}
        <GroupSubscription group={group} />
      </div>
      {/* Keyed by the viewer's membership: someone who just joined sees themselves listed. */}
      <MembersList key={group.session_user_type ?? 'visitor'} sessionId={group._id} viewerType={group.session_user_type} boxClass="max-h-64" />
      <RecentGroups />
    </aside>
  );
}

function RecentGroups() {
  const groups = recentGroups();
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="recent-groups-heading" className="space-y-2">
      <h2 id="recent-groups-heading" className="text-sm font-semibold text-slate-700">
        Recent Groups
      </h2>
      <ul className="space-y-1 text-sm">
        {groups.map((entry) => (
          <li key={entry._id}>
            <Link to={recentGroupPath(entry._id)} className="text-brand-700 hover:underline">
              {entry.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
