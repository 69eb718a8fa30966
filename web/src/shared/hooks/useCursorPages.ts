import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { LOAD_MORE_SCROLL_FRACTION } from '../constants';

export interface CursorPage<T> {
  items: T[];
  cursor: string | null;
  hasMore: boolean;
}

/**
 * A list read page by page with the server's cursor: the first page on mount (and when
 * `key` changes), the next one on loadMore() or when its scroll box nears the end.
 */
export function useCursorPages<T>(key: string, fetchPage: (cursor?: string) => Promise<CursorPage<T>>) {
  const latestFetch = useRef(fetchPage);
  latestFetch.current = fetchPage;
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const [done, setDone] = useState(false);
  // Scroll events arrive faster than re-renders; the ref stops a second request for the same page.
  const next = useRef<{ key: string; cursor?: string; hasMore: boolean; busy: boolean }>({ key, hasMore: true, busy: false });

  const loadMore = useCallback(() => {
    const page = next.current;
    if (!page.hasMore || page.busy) return;
    page.busy = true;
    setLoading(true);
    latestFetch.current(page.cursor)
      .then((reply) => {
        if (next.current !== page) return;
        next.current = { key: page.key, cursor: reply.cursor ?? undefined, hasMore: reply.hasMore && Boolean(reply.cursor), busy: false };
        setItems((current) => [...current, ...reply.items]);
      })
      .catch(() => {
        // A failed page stops paging; what is already shown stays.
        if (next.current === page) next.current = { ...page, hasMore: false, busy: false };
      })
      .finally(() => {
        if (next.current.key === page.key) {
          setLoading(false);
          setDone(!next.current.hasMore);
        }
      });
  }, []);

  useEffect(() => {
    next.current = { key, hasMore: true, busy: false };
    setItems([]);
    setDone(false);
    loadMore();
  }, [key, loadMore]);

  const onBoxScroll = useCallback(
    ({ currentTarget: box }: UIEvent<HTMLElement>) => {
      if (box.scrollTop + box.clientHeight >= box.scrollHeight * LOAD_MORE_SCROLL_FRACTION) loadMore();
    },
    [loadMore],
  );

  return { items, setItems, loading, hasMore: !done, loadMore, onBoxScroll };
}
