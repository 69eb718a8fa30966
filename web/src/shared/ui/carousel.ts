import { CAROUSEL_DRAG_FRACTION, CAROUSEL_QUICK_SWIPE_MIN_PX, CAROUSEL_QUICK_SWIPE_MS } from '../constants';

export interface Drag {
  dx: number;
  dy: number;
  elapsedMs: number;
  /** The carousel's width in px. */
  width: number;
}

/**
 * How many slides a finished drag moves: 1 forward (dragged left), -1 back, 0 none.
 * A mostly vertical drag is not a swipe.
 */
export function swipeStep({ dx, dy, elapsedMs, width }: Drag): -1 | 0 | 1 {
  if (Math.abs(dy) > Math.abs(dx)) return 0;
  const quick = elapsedMs < CAROUSEL_QUICK_SWIPE_MS && Math.abs(dx) > CAROUSEL_QUICK_SWIPE_MIN_PX;
  const far = Math.abs(dx) > width * CAROUSEL_DRAG_FRACTION;
  if (!quick && !far) return 0;
  return dx < 0 ? 1 : -1;
}
