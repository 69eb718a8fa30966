import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CREATE_POST_TEXT, FEED_EMPTY_TEXT, FEED_SEARCH_DEBOUNCE_MS, MAX_TAG_CHIPS } from './constants';
import { INVALID_GROUP_TEXT, PATHS, createItemPath, groupPath } from '../../shared/constants';
import { useDebounced } from '../../shared/hooks/useDebounced';
import { useLoadMoreOnScroll } from '../../shared/hooks/useLoadMoreOnScroll';
import { TagChips } from '../../shared/ui/TagChips';
import { Button, buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { inputClass } from '../../shared/ui/TextField';
import { useSignedInAction } from '../../shared/session/useResumeAfterLogin';
import { useCurrentUser } from '../../shared/session/currentUser';
import { CANNOT_POST_TEXT, whyCannotPost, type Group } from '../../shared/entities/group';
import { ItemCard } from '../../shared/ui/ItemCard';
import { rememberGroup } from '../../shared/rememberedGroup';
import { useFeed } from './useFeed';

const SEARCH_PARAM = 'q';

interface FeedProps {
  groupId: string;
  /** Replaces the group's name, on the group's own page (which needs no link to itself). */
  title?: string;
}

/** A group's posts with search, tag filter and infinite scroll. */
export function Feed({ groupId, title }: FeedProps) {
  const { text: searchText, setText: setSearchText, search } = useSearchInUrl();
  const [tags, setTags] = useState<string[]>([]);
  const feed = useFeed({ group_id: groupId, search_text: search || undefined, tags: tags.length > 0 ? tags : undefined });
  // While searching, the group's count and its empty state would speak of other posts than those listed.
  const filtered = search !== '' || tags.length > 0;
  // Bumped to clear the tag filter's own box along with the tags.
  const [filterRound, setFilterRound] = useState(0);
  const clearFilter = () => {
    setSearchText('');
    setTags([]);
    setFilterRound((round) => round + 1);
  };
  useLoadMoreOnScroll(feed.hasMore && !feed.loading, feed.loadMore);

  const group = feed.group?._id === groupId ? feed.group : null;
  const { user } = useCurrentUser();
  // A signed-in reader who may not post is told why, in place of the '+' (which visitors see, to log in).
  const cannotPost = user && group ? whyCannotPost(group) : null;
  useEffect(() => {
    if (group) rememberGroup(group);
  }, [group]);

  if (feed.invalidGroup) {
    // A private group's link may have been sent to invite: its page offers to ask to join.
    return (
      <EmptyState icon="🔒" title={INVALID_GROUP_TEXT}>
        {title === undefined && (
          <Link to={groupPath(groupId)} className={buttonClass('secondary')}>
            Invited? Ask to join
          </Link>
        )}
      </EmptyState>
    );
  }

  return (
    <section aria-labelledby="feed-heading" className="space-y-4">
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <h1 id="feed-heading" className="truncate text-2xl font-bold tracking-tight">
            {title ?? group?.title ?? '\u00a0'}
          </h1>
          {group && <p className="text-sm text-slate-500">{filtered ? `Posts ${filterText(search, tags, 'matching')}` : postCount(group.data.num_posts)}</p>}
          {title === undefined && (
            <p className="mt-1 flex flex-wrap gap-x-4 text-sm font-medium">
              <Link to={groupPath(groupId)} className="text-brand-700 hover:underline">
                About this group
              </Link>
              <Link to={PATHS.createGroup} className="text-brand-700 hover:underline">
                Start your own group
              </Link>
            </p>
          )}
          {cannotPost && (
            <p data-testid="cannot-post" className="mt-2 text-sm text-slate-600">
              {CANNOT_POST_TEXT}. {cannotPost}
            </p>
          )}
        </div>
        <CreateButton groupId={groupId} group={group} />
      </div>

      <input
        type="search"
        aria-label="Search posts"
        placeholder="Search"
        value={searchText}
        onChange={(event) => setSearchText(event.target.value)}
        className={inputClass}
      />
      {group && <TagFilter key={filterRound} available={group.data.tags} selected={tags} onChange={setTags} />}

      {feed.loading ? (
        <Loading />
      ) : feed.error && feed.items.length === 0 ? (
        <EmptyState icon="⚠️" title="Could not load the posts">
          <Button variant="secondary" onClick={feed.reload}>
            Try again
          </Button>
        </EmptyState>
      ) : feed.items.length === 0 && filtered ? (
        <EmptyState icon="🔍" title={`No posts ${filterText(search, tags, 'match')}`} description="Try other words, or fewer tags.">
          <Button variant="secondary" onClick={clearFilter}>
            Clear the search
          </Button>
        </EmptyState>
      ) : feed.items.length === 0 ? (
        <EmptyState icon="📝" title={FEED_EMPTY_TEXT}>
          {!cannotPost && (
            <Link to={createItemPath(groupId)} className={buttonClass('secondary')}>
              {CREATE_POST_TEXT}
            </Link>
          )}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {feed.items.map((item) => (
            <li key={item._id}>
              <ItemCard item={item} headingLevel={2} />
            </li>
          ))}
        </ul>
      )}
      {feed.loadingMore && <Loading />}
    </section>
  );
}

/**
 * The search box's text, kept in the page's address as `?q=` (replacing the entry, not adding
 * one per keystroke): Back from a post opened from the results finds them again, and a search
 * can be shared by its link.
 */
function useSearchInUrl() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get(SEARCH_PARAM) ?? '');
  // The search run: the box's text once typing paused.
  const search = useDebounced(text.trim(), FEED_SEARCH_DEBOUNCE_MS);
  const inUrl = params.get(SEARCH_PARAM) ?? '';
  useEffect(() => {
    if (inUrl === search) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (search) next.set(SEARCH_PARAM, search);
        else next.delete(SEARCH_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [inUrl, search, setParams]);
  return { text, setText, search };
}

function postCount(count: number): string {
  return `${count} ${count === 1 ? 'post' : 'posts'}`;
}

/** What the feed is filtered by, as the search box and the tags say: matching “bike” tagged #Sale. */
function filterText(search: string, tags: readonly string[], match: 'match' | 'matching'): string {
  const words = search ? `${match} “${search}”` : '';
  const tagged = tags.length > 0 ? `tagged ${tags.map((tag) => `#${tag}`).join(' ')}` : '';
  return [words, tagged].filter(Boolean).join(' ');
}

/** Shown to visitors too, so that the click can ask them to log in. */
function CreateButton({ groupId, group }: { groupId: string; group: Group | null }) {
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const press = useSignedInAction(`create:${groupId}`, () => navigate(createItemPath(groupId)));
  if (user && !group?.can_write) return null;
  return (
    <button
      type="button"
      aria-label="New post"
      onClick={press}
      className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-3xl leading-none font-light text-white shadow-md hover:bg-brand-700"
    >
      +
    </button>
  );
}

function TagFilter({ available, selected, onChange }: { available: readonly string[]; selected: string[]; onChange: (tags: string[]) => void }) {
  const [typed, setTyped] = useState('');
  const debounced = useDebounced(typed.trim(), FEED_SEARCH_DEBOUNCE_MS);
  const useSearchBox = available.length === 0 || available.length > MAX_TAG_CHIPS;
  useEffect(() => {
    if (useSearchBox) onChange(debounced ? [debounced] : []);
  }, [useSearchBox, debounced, onChange]);

  if (useSearchBox) {
    return (
      <input
        type="search"
        aria-label="Filter by tag"
        placeholder="Tag"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        className={inputClass}
      />
    );
  }
  return <TagChips tags={available} selected={selected} onChange={onChange} />;
}
