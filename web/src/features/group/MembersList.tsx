import { useState } from 'react';
import { useCursorPages } from '../../shared/hooks/useCursorPages';
import { Avatar } from '../../shared/ui/Avatar';
import { Spinner } from '../../shared/ui/Spinner';
import { fetchMembers } from './groupApi';
import { memberListLabel } from '../../shared/entities/memberTypes';

/** The group's members in a box that loads the next page when scrolled near its end. */
export function MembersList({ groupId }: { groupId: string }) {
  const [count, setCount] = useState<number | null>(null);
  const members = useCursorPages(groupId, (cursor) =>
    fetchMembers(groupId, cursor).then((reply) => {
      setCount(reply.session_users_count);
      return { items: reply.session_users, cursor: reply.cursor, hasMore: reply.has_more };
    }),
  );

  return (
    <section aria-labelledby="members-heading" className="space-y-2">
      <h2 id="members-heading" className="text-sm font-semibold text-slate-700">
        Members{count !== null && ` (${count})`}
      </h2>
      <ul onScroll={members.onBoxScroll} className="max-h-48 space-y-2 overflow-y-auto">
        {members.items.map((member) => {
          const label = memberListLabel(member.session_user_type);
          return (
            <li key={member.user_id} className="flex items-center gap-2 text-sm">
              <Avatar name={member.user.name} image={member.user.image} size={28} />
              <span className="min-w-0 flex-1 truncate">{member.user.name}</span>
              {label && <span className="shrink-0 text-xs text-slate-500">{label}</span>}
            </li>
          );
        })}
      </ul>
      {members.loading && <Spinner className="size-4 text-slate-500" />}
    </section>
  );
}
