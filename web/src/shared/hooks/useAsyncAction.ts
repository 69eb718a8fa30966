import { useCallback, useRef, useState } from 'react';
import { useLatest } from './useLatest';

/**
 * Wraps a submit handler so that it runs once at a time: calls made while it runs are
 * ignored (they resolve to undefined). The ref closes the gap between a second click
 * and the re-render that disables the button.
 */
export function useAsyncAction<Args extends unknown[], Result>(action: (...args: Args) => Promise<Result>) {
  const latest = useLatest(action);
  const running = useRef(false);
  const [busy, setBusy] = useState(false);

  const run = useCallback(async (...args: Args): Promise<Result | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    try {
      return await latest.current(...args);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, [latest]);

  return { run, busy };
}
