import { describe, expect, it } from 'vitest';
import { SWIPE_EDGE_WIDTH_PX, SWIPE_MIN_DISTANCE_PX } from './constants';
import { menuStateAfterSwipe, swipeDirection } from './swipe';

const at = (x: number, y: number, time: number) => ({ x, y, time });

describe('swipeDirection', () => {
  it('sees a quick horizontal move past the threshold', () => {
    expect(swipeDirection(at(10, 300, 0), at(110, 310, 100))).toBe('right');
    expect(swipeDirection(at(200, 300, 0), at(100, 300, 100))).toBe('left');
  });

  it('ignores a move of exactly the threshold distance', () => {
    expect(swipeDirection(at(0, 0, 0), at(SWIPE_MIN_DISTANCE_PX, 0, 10))).toBeNull();
    expect(swipeDirection(at(0, 0, 0), at(SWIPE_MIN_DISTANCE_PX + 1, 0, 10))).toBe('right');
  });

  it('ignores a slow drag (horizontal speed 0.6 px/ms or less)', () => {
    expect(swipeDirection(at(0, 0, 0), at(120, 0, 200))).toBeNull();
    expect(swipeDirection(at(0, 0, 0), at(121, 0, 200))).toBe('right');
  });

  it('ignores a move with vertical speed of 0.6 px/ms or more (scrolling)', () => {
    expect(swipeDirection(at(0, 0, 0), at(100, 60, 100))).toBeNull();
    expect(swipeDirection(at(0, 0, 0), at(100, 59, 100))).toBe('right');
  });
});

describe('menuStateAfterSwipe', () => {
  const rightSwipeFrom = (x: number) => [at(x, 300, 0), at(x + 100, 300, 100)] as const;

  it('opens a closed menu from a right swipe at the left edge', () => {
    expect(menuStateAfterSwipe(false, ...rightSwipeFrom(SWIPE_EDGE_WIDTH_PX))).toBe(true);
  });

  it('leaves a closed menu alone when the swipe starts away from the edge', () => {
    expect(menuStateAfterSwipe(false, ...rightSwipeFrom(SWIPE_EDGE_WIDTH_PX + 1))).toBeNull();
  });

  it('closes an open menu on a left swipe', () => {
    expect(menuStateAfterSwipe(true, at(240, 300, 0), at(100, 300, 100))).toBe(false);
  });

  it('does nothing for a right swipe on an open menu or a non-swipe', () => {
    expect(menuStateAfterSwipe(true, ...rightSwipeFrom(0))).toBeNull();
    expect(menuStateAfterSwipe(false, at(0, 0, 0), at(30, 0, 10))).toBeNull();
  });
});
