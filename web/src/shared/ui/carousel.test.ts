import { describe, expect, it } from 'vitest';
import { swipeStep, type Drag } from './carousel';

const drag = (fields: Partial<Drag>): Drag => ({ dx: 0, dy: 0, elapsedMs: 100, width: 300, ...fields });

describe('swipeStep', () => {
  it('counts a quick swipe of over 20 px, either way', () => {
    expect(swipeStep(drag({ dx: -21, elapsedMs: 249 }))).toBe(1);
    expect(swipeStep(drag({ dx: 21, elapsedMs: 249 }))).toBe(-1);
  });

  it('ignores a quick swipe of 20 px or less', () => {
    expect(swipeStep(drag({ dx: -20, elapsedMs: 100 }))).toBe(0);
  });

  it('needs a slow drag to pass a third of the width', () => {
    expect(swipeStep(drag({ dx: -99, elapsedMs: 250 }))).toBe(0);
    expect(swipeStep(drag({ dx: -101, elapsedMs: 800 }))).toBe(1);
    expect(swipeStep(drag({ dx: 101, elapsedMs: 800 }))).toBe(-1);
  });

  it('ignores a mostly vertical drag', () => {
    expect(swipeStep(drag({ dx: -30, dy: 40 }))).toBe(0);
  });
});
