import { useInsertionEffect, useRef, type RefObject } from 'react';

/**
 * A ref holding the latest `value`, for what runs later (a socket listener, a timer, an event
 * handler, an effect) and must see the caller's latest callback without subscribing again.
 * Written once React commits the render, before any of the render's effects run: a render
 * itself may not write refs (React's rules, which lint checks), as it may be thrown away.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useInsertionEffect(() => {
    ref.current = value;
  });
  return ref;
}
