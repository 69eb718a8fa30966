import type { MouseEvent } from 'react';
import type { ReactionMap } from './reactions';

/** Emoji and how many reacted with each, most used first. */
export function reactionCounts(reactions: ReactionMap): Array<[emoji: string, count: number]> {
  const counts = new Map<string, number>();
  for (const emoji of Object.values(reactions)) if (emoji) counts.set(emoji, (counts.get(emoji) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

interface ReactionsProps {
  reactions: ReactionMap;
  /** The viewer, whose own reaction is marked. */
  meId?: string | null;
  /** A chip's tap chooses its emoji (the viewer's own again takes it away); absent for a viewer who may not react. */
  onToggle?: (emoji: string) => void;
  /** Who reacted with an emoji: a right click or a touch screen's long press on its chip (a tap, for a viewer who may not react). */
  onShowWho?: (emoji: string) => void;
}

const CHIP = 'rounded-full px-1.5 text-sm shadow-xs ring-1';

/** The reactions under a message: each emoji once, with how many chose it. */
export function Reactions({ reactions, meId = null, onToggle, onShowWho }: ReactionsProps) {
  const counts = reactionCounts(reactions);
  if (counts.length === 0) return null;
  const mine = meId ? reactions[meId] : undefined;
  return (
    <ul aria-label="Reactions" className="-mb-3 mt-1 flex flex-wrap gap-1">
      {counts.map(([emoji, count]) => {
        const label = `${emoji} ${count}`;
        const shown = (
          <>
            {emoji}
            {count > 1 && <span className="ml-0.5 text-xs text-slate-600">{count}</span>}
          </>
        );
        const act = onToggle ?? onShowWho;
        if (!act) {
          return (
            <li key={emoji} aria-label={label} className={`${CHIP} bg-white ring-slate-200`}>
              {shown}
            </li>
          );
        }
        const showWho = (event: MouseEvent) => {
          // The chip's own menu, not the message's (its info, its menu).
          event.preventDefault();
          event.stopPropagation();
          onShowWho?.(emoji);
        };
        return (
          <li key={emoji}>
            <button
              type="button"
              aria-label={label}
              aria-pressed={onToggle ? mine === emoji : undefined}
              title={onShowWho ? 'Right-click or hold to see who reacted' : undefined}
              onClick={() => act(emoji)}
              onContextMenu={onShowWho ? showWho : undefined}
              // A hold on a chip is the chip's, not the message's long press.
              onPointerDown={(event) => event.stopPropagation()}
              className={`${CHIP} ${mine === emoji ? 'bg-brand-100 ring-brand-400' : 'bg-white ring-slate-200 hover:bg-slate-100'}`}
            >
              {shown}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
