import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReplyWindow } from './useReplyWindow';

describe('the live countdown', () => {
  afterEach(() => vi.useRealTimers());

  /** Time passing tick by tick: each redraw schedules the next. */
  const pass = (ms: number) => {
    for (let passed = 0; passed < ms; passed += 15_000) act(() => vi.advanceTimersByTime(15_000));
  };

  it('ticks down and closes the window at its end', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { result } = renderHook(() => useReplyWindow(1_000_000 + 2 * 60_000 + 30_000));
    expect(result.current).toEqual({ open: true, text: 'Free-form replies allowed for 2 min' });
    pass(60_000);
    expect(result.current.text).toBe('Free-form replies allowed for 1 min');
    pass(90_000);
    expect(result.current).toEqual({ open: false, text: 'Window closed: send a template' });
  });
});
