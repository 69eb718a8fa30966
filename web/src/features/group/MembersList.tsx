import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { LOAD_MORE_SCROLL_FRACTION } from '../../shared/constants';
import { Avatar } from '../../shared/ui/Avatar';
import { Spinner } from '../../shared/ui/Spinner';
import { fetchMembers, type Member } from './groupApi';

/** The group's members in a box that loads the next page when scrolled near its end. */
export function MembersList({ groupId }: { groupId: string }) {
  const [members, setMembers] = useState<Member[]>([]);
  const [count, setCount] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const next = useRef<{ cursor?: string; hasMore: boolean; busy: boolean }>({ hasMore: true, busy: false });

  const loadMore = useCallback(() => {
    const page = next.current;
    if (!page.hasMore || page.busy) return;
    page.busy = true;
    setLoading(true);
    fetchMembers(groupId, page.cursor)
      .then((reply) => {
        next.current = { cursor: reply.cursor ?? undefined, hasMore: reply.has_more && Boolean(reply.cursor), busy: false };
        setMembers((current) => [...current, ...reply.session_users]);
        setCount(reply.session_users_count);
      })
      .catch(() => {
        // A failed page stops paging; the members already shown stay.
        next.current = { ...page, hasMore: false, busy: false };
      })
      .finally(() => setLoading(false));
  }, [groupId]);

  useEffect(loadMore, [loadMore]);

  const onScroll = ({ currentTarget: box }: UIEvent<HTMLElement>) => {
    if (box.scrollTop + box.clientHeight >= box.scrollHeight * LOAD_MORE_SCROLL_FRACTION) loadMore();
  };

  return (
    <section aria-labelledby="members-heading" className="space-y-2">
      <h2 id="members-heading" className="text-sm font-semibold text-slate-700">
        Members{count !== null && ` (${count})`}
      </h2>
      <ul onScroll={onScroll} className="max-h-48 space-y-2 overflow-y-auto">
        {members.map((member) => (
          <li key={member.user_id} className="flex items-center gap-2 text-sm">
            <Avatar name={member.user.name} image={member.user.image} size={28} />
            <span className="truncate">{member.user.name}</span>
          </li>
        ))}
      </ul>
      {loading && <Spinner className="size-4 text-slate-400" />}
    </section>
  );
}
