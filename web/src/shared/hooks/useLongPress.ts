import { useEffect, useRef, type PointerEvent } from 'react';
import { LONG_PRESS_MS, TOUCH_DRAG_THRESHOLD_PX } from '../constants';

/** Pointer handlers that call `onLongPress` after the spec's hold time, unless the pointer moved (a scroll). */
export function useLongPress(onLongPress: () => void) {
  const latest = useRef(onLongPress);
  latest.current = onLongPress;
  const press = useRef<{ x: number; y: number; timer: ReturnType<typeof setTimeout> } | null>(null);

  const cancel = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  useEffect(() => cancel, []);

  return {
    onPointerDown: (event: PointerEvent) => {
      cancel();
      press.current = { x: event.clientX, y: event.clientY, timer: setTimeout(() => latest.current(), LONG_PRESS_MS) };
    },
    onPointerMove: (event: PointerEvent) => {
      const start = press.current;
      if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > TOUCH_DRAG_THRESHOLD_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerLeave: cancel,
    onPointerCancel: cancel,
  };
}
