import { useEffect, useRef, type PointerEvent } from 'react';
import { LONG_PRESS_MS, TOUCH_DRAG_THRESHOLD_PX } from '../constants';
import { useLatest } from './useLatest';

/**
 * A handler for the element's `onPointerDown` that calls `onLongPress` after the spec's hold
 * time, unless the pointer moved (a scroll, a drag) or was lifted first.
 *
 * The press follows the pointer itself, wherever it goes, not its place over the element: the
 * page may move under a pointer that stays still (a bar that loaded above the messages pushed
 * them down), which the browser tells as the pointer leaving the element. Taken for a drag,
 * that left a phone's long press without its menu.
 */
export function useLongPress(onLongPress: () => void) {
  const latest = useLatest(onLongPress);
  const release = useRef<(() => void) | null>(null);
  useEffect(() => () => release.current?.(), []);

  return {
    onPointerDown: (event: PointerEvent) => {
      release.current?.();
      const { pointerId, clientX: x, clientY: y } = event;
      const moved = (change: globalThis.PointerEvent) => {
        if (change.pointerId === pointerId && Math.hypot(change.clientX - x, change.clientY - y) > TOUCH_DRAG_THRESHOLD_PX) end();
      };
      const lifted = (change: globalThis.PointerEvent) => {
        if (change.pointerId === pointerId) end();
      };
      const timer = setTimeout(() => {
        end();
        latest.current();
      }, LONG_PRESS_MS);
      function end() {
        clearTimeout(timer);
        window.removeEventListener('pointermove', moved);
        window.removeEventListener('pointerup', lifted);
        window.removeEventListener('pointercancel', lifted);
        release.current = null;
      }
      window.addEventListener('pointermove', moved);
      window.addEventListener('pointerup', lifted);
      window.addEventListener('pointercancel', lifted);
      release.current = end;
    },
  };
}
