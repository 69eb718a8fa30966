import { useEffect, useState } from 'react';
import { WA_COUNTDOWN_TICK_MS } from './constants';
import { replyWindow } from './businessChat';

/**
 * The business chat's reply window, kept current: it redraws as the minutes go, and exactly
 * when the window closes (so the composer turns to templates at that moment).
 */
export function useReplyWindow(windowEndsAt: number | undefined) {
  const [now, setNow] = useState(() => Date.now());
  // A new end (the customer wrote again) is measured from the present, not the last redraw:
  // at once, from a timer (state set straight from an effect renders everything twice in a row).
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), 0);
    return () => clearTimeout(timer);
  }, [windowEndsAt]);
  useEffect(() => {
    const left = (windowEndsAt ?? 0) - now;
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(WA_COUNTDOWN_TICK_MS, left));
    return () => clearTimeout(timer);
  }, [windowEndsAt, now]);
  return replyWindow(windowEndsAt, now);
}
