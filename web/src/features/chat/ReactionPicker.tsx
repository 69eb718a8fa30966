import { REACTION_EMOJIS, REACTION_PICKER_TITLE } from './constants';
import { Modal } from '../../shared/ui/Modal';

interface ReactionPickerProps {
  /** The viewer's reaction to the message, marked (choosing it again takes it away). */
  mine: string | undefined;
  onPick: (emoji: string) => void;
  onClose: () => void;
}

/** Every emoji the server takes as a reaction, behind the reaction bar's "+". */
export function ReactionPicker({ mine, onPick, onClose }: ReactionPickerProps) {
  return (
    <Modal title={REACTION_PICKER_TITLE} onClose={onClose}>
      <div role="group" aria-label="Reactions to choose from" className="grid grid-cols-7 gap-1 sm:grid-cols-9">
        {REACTION_EMOJIS.map((emoji, index) => (
          <button
            key={emoji}
            type="button"
            aria-label={`React with ${emoji}`}
            aria-pressed={mine === emoji}
            data-autofocus={index === 0 || undefined}
            onClick={() => {
              onPick(emoji);
              onClose();
            }}
            className={`flex aspect-square items-center justify-center rounded-lg text-2xl hover:bg-slate-100 ${mine === emoji ? 'bg-brand-100 ring-1 ring-brand-400' : ''}`}
          >
            {emoji}
          </button>
        ))}
      </div>
    </Modal>
  );
}
