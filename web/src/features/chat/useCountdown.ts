import { useEffect, useState } from 'react';

const TICK_MS = 250;

function leftUntil(until: number | null): number {
  return until === null ? 0 : Math.max(0, until - Date.now());
}

/** Milliseconds left until `until` (epoch ms), ticking while any are left; 0 once it passed or without one. */
export function useCountdown(until: number | null): number {
  const [remaining, setRemaining] = useState(() => leftUntil(until));
  useEffect(() => {
    // A new deadline is measured against the clock now, not at the last tick (which may be long
    // past: the interval stops at 0); reading the clock during render would be impure.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setRemaining(leftUntil(until));
    if (until === null) return undefined;
    const timer = setInterval(() => {
      const now = leftUntil(until);
      setRemaining(now);
      if (now === 0) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [until]);
  return remaining;
}
