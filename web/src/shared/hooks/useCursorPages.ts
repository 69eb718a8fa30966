import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { LOAD_MORE_SCROLL_FRACTION } from '../constants';
import { useLatest } from './useLatest';

export interface CursorPage<T> {
  items: T[];
  cursor: string | null;
  hasMore: boolean;
}

const appendPage = <T,>(shown: T[], page: T[]) => [...shown, ...page];

/** Appends a page's entries that are not shown yet: live news can show an entry before the
 * page that holds it arrives, and the shown one is the newer. */
export const appendNewById = <T extends { _id: string }>(shown: T[], page: T[]) => {
  const ids = new Set(shown.map((entry) => entry._id));
  return [...shown, ...page.filter((entry) => !ids.has(entry._id))];
};

/**
 * A list read page by page with the server's cursor: the first page on mount (and when
 * `key` changes), the next one on loadMore() or when its scroll box nears the end.
 * `merge` adds a page to what is shown (default: append).
 */
export function useCursorPages<T>(
  key: string,
  fetchPage: (cursor?: string) => Promise<CursorPage<T>>,
  merge: (shown: T[], page: T[]) => T[] = appendPage,
) {
  const latestFetch = useLatest(fetchPage);
  const latestMerge = useLatest(merge);
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Scroll events arrive faster than re-renders; the ref stops a second request for the same page.
  const next = useRef<{ key: string; cursor?: string; hasMore: boolean; busy: boolean; failed?: boolean }>({ key, hasMore: true, busy: false });

  const loadMore = useCallback(() => {
    const page = next.current;
    if (!page.hasMore || page.busy) return;
    page.busy = true;
    setLoading(true);
    setError(null);
    latestFetch.current(page.cursor)
      .then((reply) => {
        if (next.current !== page) return;
        next.current = { key: page.key, cursor: reply.cursor ?? undefined, hasMore: reply.hasMore && Boolean(reply.cursor), busy: false };
        setItems((current) => latestMerge.current(current, reply.items));
      })
      .catch((failure: unknown) => {
        // A failed page stops paging until retry(); what is already shown stays.
        if (next.current !== page) return;
        next.current = { ...page, hasMore: false, busy: false, failed: true };
        setError(failure);
      })
      .finally(() => {
        if (next.current.key === page.key) {
          setLoading(false);
          setDone(!next.current.hasMore);
        }
      });
  }, [latestFetch, latestMerge]);

  useEffect(() => {
    next.current = { key, hasMore: true, busy: false };
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new key's reset and its first page's request are one step, which the effect starts
    setItems([]);
    setDone(false);
    setError(null);
    loadMore();
  }, [key, loadMore]);

  /** Asks again for the page that failed. */
  const retry = useCallback(() => {
    const page = next.current;
    if (!page.failed) return;
    next.current = { key: page.key, cursor: page.cursor, hasMore: true, busy: false };
    loadMore();
  }, [loadMore]);

  const onBoxScroll = useCallback(
    ({ currentTarget: box }: UIEvent<HTMLElement>) => {
      if (box.scrollTop + box.clientHeight >= box.scrollHeight * LOAD_MORE_SCROLL_FRACTION) loadMore();
    },
    [loadMore],
  );

  return { items, setItems, loading, hasMore: !done, error, retry, loadMore, onBoxScroll };
}
