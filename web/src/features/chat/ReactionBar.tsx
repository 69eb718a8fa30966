import { REACTION_QUICK } from './constants';

/** What a message's bubble offers of reactions, for the viewer. */
export interface MessageReactions {
  meId: string | null;
  /** Chooses an emoji (the viewer's own again takes it away); absent for a viewer who may not react. */
  onReact?: (emoji: string) => void;
  /** Opens the picker of every offered emoji. */
  onMore?: () => void;
  /** Who reacted: with this emoji first, or with each (null). */
  onShowWho: (emoji: string | null) => void;
}

interface ReactionBarProps {
  /** The viewer's reaction to the message, marked. */
  mine: string | undefined;
  reactions: MessageReactions;
  /** Closes the menu it is in. */
  onDone: () => void;
}

const BUTTON = 'flex size-9 items-center justify-center rounded-full text-xl hover:bg-slate-100 focus-visible:bg-slate-100';

/** The quick reactions atop a message's menu, and "+" for the picker. */
export function ReactionBar({ mine, reactions, onDone }: ReactionBarProps) {
  const choose = (act: () => void) => () => {
    onDone();
    act();
  };
  return (
    <div role="group" aria-label="React" className="flex items-center gap-0.5 border-b border-slate-100 px-1 pb-1">
      {REACTION_QUICK.map((emoji, index) => (
        <button
          key={emoji}
          type="button"
          role="menuitemcheckbox"
          aria-checked={mine === emoji}
          aria-label={`React with ${emoji}`}
          autoFocus={index === 0}
          onClick={choose(() => reactions.onReact?.(emoji))}
          className={`${BUTTON} ${mine === emoji ? 'bg-brand-100 ring-1 ring-brand-400' : ''}`}
        >
          {emoji}
        </button>
      ))}
      {reactions.onMore && (
        <button type="button" role="menuitem" aria-label="More reactions" onClick={choose(reactions.onMore)} className={`${BUTTON} text-slate-600`}>
          +
        </button>
      )}
    </div>
  );
}
