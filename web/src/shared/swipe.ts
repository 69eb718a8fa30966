import {
  SWIPE_EDGE_WIDTH_PX,
  SWIPE_MAX_VERTICAL_SPEED,
  SWIPE_MIN_DISTANCE_PX,
  SWIPE_MIN_HORIZONTAL_SPEED,
} from './constants';

export interface TouchSample {
  x: number;
  y: number;
  /** Milliseconds. */
  time: number;
}

export type SwipeDirection = 'left' | 'right';

/** A swipe is a quick, mostly horizontal move of more than the threshold distance. */
export function swipeDirection(start: TouchSample, end: TouchSample): SwipeDirection | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const elapsed = Math.max(end.time - start.time, 1);
  if (Math.abs(dx) <= SWIPE_MIN_DISTANCE_PX) return null;
  if (Math.abs(dx) / elapsed <= SWIPE_MIN_HORIZONTAL_SPEED) return null;
  if (Math.abs(dy) / elapsed >= SWIPE_MAX_VERTICAL_SPEED) return null;
  return dx > 0 ? 'right' : 'left';
}

/**
 * The side menu's open state after a swipe, or null when the swipe does not apply.
 * A collapsed menu opens only from a swipe that starts at the left edge, so that
 * swipes meant for the page (carousels, chat views) do not open it.
 */
export function menuStateAfterSwipe(isOpen: boolean, start: TouchSample, end: TouchSample): boolean | null {
  const direction = swipeDirection(start, end);
  if (direction === 'right' && !isOpen && start.x <= SWIPE_EDGE_WIDTH_PX) return true;
  if (direction === 'left' && isOpen) return false;
  return null;
}
