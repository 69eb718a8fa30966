import { useEffect } from 'react';
import { LOAD_MORE_SCROLL_FRACTION } from '../constants';
import { useLatest } from './useLatest';

/**
 * Calls `loadMore` when the window is scrolled past the spec's fraction of the page, and
 * also right away when the page is too short to scroll, so a short first page still fills up.
 */
export function useLoadMoreOnScroll(enabled: boolean, loadMore: () => void) {
  const latest = useLatest(loadMore);
  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const { scrollHeight } = document.documentElement;
      if (window.scrollY + window.innerHeight >= scrollHeight * LOAD_MORE_SCROLL_FRACTION) latest.current();
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    return () => window.removeEventListener('scroll', check);
  }, [enabled, latest]);
}
