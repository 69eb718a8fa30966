import { useEffect } from 'react';
import { menuStateAfterSwipe, type TouchSample } from '../shared/swipe';

/** Opens or closes the drawer menu on horizontal swipes anywhere on the page. */
export function useMenuSwipe(enabled: boolean, open: boolean, setOpen: (open: boolean) => void): void {
  useEffect(() => {
    if (!enabled) return undefined;
    let start: TouchSample | null = null;

    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      start = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY, time: event.timeStamp } : null;
    };
    const onEnd = (event: TouchEvent) => {
      const touch = event.changedTouches[0];
      if (!start || !touch) return;
      const next = menuStateAfterSwipe(open, start, { x: touch.clientX, y: touch.clientY, time: event.timeStamp });
      start = null;
      if (next !== null) setOpen(next);
    };

    window.addEventListener('touchstart', onStart, { passive: true });
    window.addEventListener('touchend', onEnd, { passive: true });
    return () => {
      window.removeEventListener('touchstart', onStart);
      window.removeEventListener('touchend', onEnd);
    };
  }, [enabled, open, setOpen]);
}
