import { MAKE_PUBLIC_CONFIRM } from './constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { LockIcon } from '../../shared/ui/icons';
import { useUi } from '../../shared/ui/uiContext';
import type { Session } from '../../shared/chat/types';
import { updateSession } from './chatApi';
import { canMakePublic, isLocked } from './rules';

/** Marks a chat nobody outside can read; a participant allowed to may open it to readers. */
export function LockButton({ session, onSession }: { session: Session; onSession: (session: Session) => void }) {
  const ui = useUi();
  const open = useAsyncAction(async () => {
    if (!(await ui.confirm(MAKE_PUBLIC_CONFIRM))) return;
    try {
      const reply = await updateSession(session._id, { is_read_allowed: true });
      onSession({ ...session, ...reply.session });
    } catch (error) {
      ui.showError(error);
    }
  });
  if (!isLocked(session)) return null;
  if (!canMakePublic(session)) {
    return (
      <span role="img" aria-label="Private chat" className="text-slate-500">
        <LockIcon />
      </span>
    );
  }
  return (
    <button
      type="button"
      aria-label="Make this chat public"
      disabled={open.busy}
      onClick={() => void open.run()}
      className="rounded-full p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
    >
      <LockIcon />
    </button>
  );
}
