import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../shared/errors';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import { useCurrentUser } from '../../shared/session/currentUser';
import { isInvalidGroupError, type Group } from '../../shared/entities/group';
import type { Item } from '../../shared/entities/item';
import { fetchFeed, type FeedQuery } from './feedApi';
import { useLatest } from '../../shared/hooks/useLatest';

export interface FeedState {
  items: Item[];
  group: Group | null;
  /** Set while the first page for the current query loads. */
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  invalidGroup: boolean;
  error: unknown;
}

const INITIAL: FeedState = { items: [], group: null, loading: true, loadingMore: false, hasMore: false, invalidGroup: false, error: null };

/**
 * The feed pages for a query; a new query starts over and drops replies to the old one. The
 * reply depends on who reads it (the group's can_write and membership), so the first page
 * waits until the viewer is known and loads again when they log in or out.
 */
export function useFeed(query: Omit<FeedQuery, 'cursor'>) {
  const { status, user } = useCurrentUser();
  const viewer = status === 'ready' || status === 'error' ? (user?._id ?? '') : null;
  const [state, setState] = useState<FeedState>(INITIAL);
  const cursor = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Scroll events arrive faster than re-renders: set from asking for a next page until it answers.
  const pageAsked = useRef(false);
  const key = JSON.stringify(query);

  const load = useCallback(
    (first: boolean) => {
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      pageAsked.current = !first;
      setState((current) => (first ? { ...INITIAL, group: current.group } : { ...current, loadingMore: true }));
      const page: FeedQuery = { ...(JSON.parse(key) as FeedQuery), cursor: first ? undefined : (cursor.current ?? undefined) };
      fetchFeed(page, mine.signal).then(
        (reply) => {
          if (mine.signal.aborted) return;
          pageAsked.current = false;
          cursor.current = reply.next_cursor;
          setState((current) => ({
            ...current,
            items: first ? reply.items : [...current.items, ...reply.items],
            group: reply.group,
            loading: false,
            loadingMore: false,
            hasMore: reply.has_more && Boolean(reply.next_cursor),
          }));
        },
        (error: unknown) => {
          if (mine.signal.aborted) return;
          pageAsked.current = false;
          const invalidGroup = isApiError(error) && isInvalidGroupError(error.errors);
          setState((current) => ({ ...current, loading: false, loadingMore: false, hasMore: false, invalidGroup, error }));
        },
      );
    },
    [key],
  );

  // A new query or viewer starts over; `viewer` is not read by `load`, but its reply depends on it.
  useEffect(() => {
    if (viewer === null) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first page's request and the feed's reset to loading are one step: the request is what the effect starts
    load(true);
    return () => controller.current?.abort();
  }, [load, viewer]);

  // The server sends the poster `item` when their post's held reward moved (paid from,
  // released by a close, delete or expiry): their cards follow it rather than keep saying
  // "held" until the feed is read again.
  useSocketEvent<{ item?: Item }>(
    'item',
    (event) => {
      const changed = event?.item;
      if (!changed) return;
      setState((current) => ({ ...current, items: current.items.map((card) => (card._id === changed._id ? { ...card, ...changed } : card)) }));
    },
    Boolean(viewer),
  );

  const shown = useLatest(state);
  const loadMore = useCallback(() => {
    const current = shown.current;
    if (!current.hasMore || current.loading || current.loadingMore || pageAsked.current) return;
    load(false);
  }, [load, shown]);

  return { ...state, loadMore, reload: () => load(true) };
}
