import { useId, useState } from 'react';
import { MODERATION_LABELS, blockMemberConfirm, makeModeratorConfirm } from '../constants';
import { useCursorPages } from '../hooks/useCursorPages';
import { Avatar } from '../ui/Avatar';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { useUi } from '../ui/uiContext';
import { memberListLabel } from '../entities/memberTypes';
import { fetchSessionUsers, isModerator, moderate, moderationActions, type ModerationAction, type SessionUser } from './members';

interface MembersListProps {
  /** A group's id or a chat's. */
  sessionId: string;
  /** The viewer's membership type: moderators get each member's moderation buttons. */
  viewerType: number | null;
  /** The heading's level where the list sits (a page's section, or a panel inside a chat). */
  headingLevel?: 2 | 3;
  /** The list's scroll box height, as a Tailwind class. */
  boxClass?: string;
}

/** The moderation steps that ask first: each hard to take back, and one the member feels at once. */
const CONFIRMED_ACTIONS: Partial<Record<ModerationAction, (name: string) => string>> = {
  make_moderator: makeModeratorConfirm,
  block: blockMemberConfirm,
};

/**
 * A group's or chat's members with their roles, loading the next page when scrolled near its
 * end; for moderators, the actions they may take on each (making a moderator and blocking ask first) and
 * what each member's app reported.
 */
export function MembersList({ sessionId, viewerType, headingLevel = 2, boxClass = 'max-h-80' }: MembersListProps) {
  const ui = useUi();
  const headingId = useId();
  const [count, setCount] = useState<number | null>(null);
  const members = useCursorPages(sessionId, (cursor) =>
    fetchSessionUsers(sessionId, cursor).then((reply) => {
      setCount(reply.session_users_count);
      return { items: reply.session_users, cursor: reply.cursor, hasMore: reply.has_more };
    }),
  );
  const moderator = isModerator(viewerType);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const act = async (member: SessionUser, action: ModerationAction) => {
    const question = CONFIRMED_ACTIONS[action]?.(member.user.name);
    if (question && !(await ui.confirm(question))) return;
    try {
      const reply = await moderate(sessionId, member.user_id, action);
      members.setItems((current) =>
        current.map((entry) => (entry.user_id === member.user_id ? { ...entry, ...reply.session_user, user: entry.user } : entry)),
      );
    } catch (error) {
      ui.showError(error);
    }
  };

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <Heading id={headingId} className="text-sm font-semibold text-slate-700">
        Members{count !== null && ` (${count})`}
      </Heading>
      <ul onScroll={members.onBoxScroll} className={`${boxClass} space-y-1 overflow-y-auto`}>
        {members.items.map((member) => (
          <li key={member.user_id} className="rounded-xl px-1 py-1.5">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Avatar name={member.user.name} image={member.user.image} size={32} />
              <span className="min-w-0 flex-1 truncate">{member.user.name}</span>
              <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{memberListLabel(member.session_user_type)}</span>
              {moderationActions(viewerType, member.session_user_type).map((action) => (
                <Button key={action} size="sm" variant={action === 'block' || action === 'reject' ? 'danger' : 'secondary'} onClick={() => void act(member, action)}>
                  {MODERATION_LABELS[action]}
                </Button>
              ))}
            </div>
            {moderator && member.data.app !== undefined && (
              <pre className="mt-1 ml-10 overflow-x-auto rounded-lg bg-slate-50 p-2 text-xs text-slate-600">{JSON.stringify(member.data.app, null, 1)}</pre>
            )}
          </li>
        ))}
      </ul>
      {members.loading && <Spinner className="size-4 text-slate-500" />}
    </section>
  );
}
