import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS, TOUCH_DRAG_THRESHOLD_PX } from '../constants';
import { useLongPress } from './useLongPress';

function Pressable({ onLongPress }: { onLongPress: () => void }) {
  return (
    <div data-testid="message" {...useLongPress(onLongPress)}>
      A message
    </div>
  );
}

const at = { pointerId: 1, clientX: 40, clientY: 60 };

function pressed() {
  const onLongPress = vi.fn();
  render(<Pressable onLongPress={onLongPress} />);
  const message = screen.getByTestId('message');
  fireEvent.pointerDown(message, at);
  return { message, onLongPress };
}

function held(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('long press', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls back once the hold time is over', () => {
    const { onLongPress } = pressed();
    held(LONG_PRESS_MS - 1);
    expect(onLongPress).not.toHaveBeenCalled();
    held(1);
    expect(onLongPress).toHaveBeenCalledTimes(1);
  });

  it('holds on when the page moves under a pointer that stays still', () => {
    // A bar loaded above the messages pushes them down: the browser tells it as the pointer
    // leaving the message, at the very place it was pressed.
    const { message, onLongPress } = pressed();
    fireEvent.pointerLeave(message, at);
    fireEvent.pointerMove(document.body, at);
    held(LONG_PRESS_MS);
    expect(onLongPress).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['over the message', () => screen.getByTestId('message')],
    ['anywhere else', () => document.body],
  ])('gives up when the pointer moves away, %s', (_, over) => {
    const { onLongPress } = pressed();
    fireEvent.pointerMove(over(), { ...at, clientY: at.clientY + TOUCH_DRAG_THRESHOLD_PX + 1 });
    held(LONG_PRESS_MS);
    expect(onLongPress).not.toHaveBeenCalled();
  });

  it.each(['pointerUp', 'pointerCancel'] as const)('gives up on %s (lifted, or taken by the browser for a scroll)', (end) => {
    const { message, onLongPress } = pressed();
    fireEvent[end](message, at);
    held(LONG_PRESS_MS);
    expect(onLongPress).not.toHaveBeenCalled();
  });

  it('follows only its own pointer', () => {
    const { onLongPress } = pressed();
    fireEvent.pointerUp(document.body, { ...at, pointerId: 2 });
    held(LONG_PRESS_MS);
    expect(onLongPress).toHaveBeenCalledTimes(1);
  });
});
