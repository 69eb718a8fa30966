type Unit = readonly [Intl.RelativeTimeFormatUnit, number];
const SECOND: Unit = ['second', 1000];
const UNITS: readonly Unit[] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  SECOND,
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", "yesterday", "2 years ago": the largest unit that fits, up to years. */
export function relativeTime(epochMs: number, now = Date.now()): string {
  const diff = epochMs - now;
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? SECOND;
  return format.format(Math.round(diff / size), unit);
}
