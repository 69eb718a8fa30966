/** Returns a function that says whether one more event fits in the sliding window. */
export function createRateLimiter(maxEvents: number, windowMs: number, now: () => number = Date.now): () => boolean {
  const times: number[] = [];
  return () => {
    const current = now();
    while (times.length > 0 && current - (times[0] as number) >= windowMs) times.shift();
    if (times.length >= maxEvents) return false;
    times.push(current);
    return true;
  };
}
