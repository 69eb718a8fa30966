import { useEffect } from 'react';
import { useCurrentUser } from '../shared/session/currentUser';

/** "(3) " before a title; stripped again before another count is put there. */
const COUNT_PREFIX = /^\(\d+\+?\) /;
/** Past this the count says "99+": a bigger number tells the eye nothing more. */
export const UNSEEN_SHOWN_MAX = 99;

/** The count as a badge shows it. */
export function unseenLabel(count: number): string {
  return count > UNSEEN_SHOWN_MAX ? `${UNSEEN_SHOWN_MAX}+` : String(count);
}

/** The tab's title with the unseen count in front, as mail and chat apps show it. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(COUNT_PREFIX, '');
  return count > 0 ? `(${unseenLabel(count)}) ${base}` : base;
}

interface BadgingNavigator {
  setAppBadge?: (count?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
}

/** The installed app's icon badge, where the browser has one (the Badging API). */
function setAppBadge(count: number): void {
  const badging = navigator as Navigator & BadgingNavigator;
  const done = count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.();
  // A browser that refuses (not installed, no permission) leaves the icon as it was.
  done?.catch(() => undefined);
}

/** The signed-in user's unseen notifications (0 for a visitor). */
export function useUnseenCount(): number {
  const { user } = useCurrentUser();
  return user?.data.notifications_unseen_count ?? 0;
}

/**
 * Unseen activity where the eye is, whatever the page: the tab's title and the installed
 * app's badge follow the count (the menu button's dot is the header's part).
 */
export function useUnseenSignals(): void {
  const count = useUnseenCount();
  useEffect(() => {
    document.title = titleWithCount(document.title, count);
    setAppBadge(count);
  }, [count]);
}
