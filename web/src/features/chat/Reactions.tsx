/** Emoji and how many reacted with each, most used first. */
export function reactionCounts(reactions: Readonly<Record<string, string>>): Array<[emoji: string, count: number]> {
  const counts = new Map<string, number>();
  for (const emoji of Object.values(reactions)) if (emoji) counts.set(emoji, (counts.get(emoji) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

/** The reactions under a message. */
export function Reactions({ reactions }: { reactions: Readonly<Record<string, string>> }) {
  const counts = reactionCounts(reactions);
  if (counts.length === 0) return null;
  return (
    <ul aria-label="Reactions" className="-mb-3 mt-1 flex gap-1">
      {counts.map(([emoji, count]) => (
        <li key={emoji} aria-label={`${emoji} ${count}`} className="rounded-full bg-white px-1.5 text-sm shadow-xs ring-1 ring-slate-200">
          {emoji}
          {count > 1 && <span className="ml-0.5 text-xs text-slate-600">{count}</span>}
        </li>
      ))}
    </ul>
  );
}
