import { REACTIONS_DIALOG_TITLE } from './constants';
import { Modal } from '../../shared/ui/Modal';
import { UserName } from '../../shared/chat/UserName';
import { reactionCounts } from './Reactions';
import { reactorsOf, type ReactionMap } from './reactions';

interface WhoReactedDialogProps {
  reactions: ReactionMap;
  /** The emoji whose chip was asked about, listed first; all of them when null. */
  first: string | null;
  meId: string | null;
  onClose: () => void;
}

/** Who reacted to a message, by emoji (names from the batched user lookup). */
export function WhoReactedDialog({ reactions, first, meId, onClose }: WhoReactedDialogProps) {
  const emoji = reactionCounts(reactions).sort(([a], [b]) => Number(b === first) - Number(a === first));
  return (
    <Modal title={REACTIONS_DIALOG_TITLE} onClose={onClose}>
      <div className="space-y-4 text-sm">
        {emoji.map(([shown, count]) => (
          <section key={shown} aria-label={`${shown} ${count}`}>
            <h3 className="mb-1 font-semibold text-slate-700">
              <span className="text-lg">{shown}</span> {count}
            </h3>
            <ul className="space-y-1 text-slate-700">
              {reactorsOf(reactions, shown, meId).map((userId) => (
                <li key={userId}>{userId === meId ? 'You' : <UserName userId={userId} />}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Modal>
  );
}
