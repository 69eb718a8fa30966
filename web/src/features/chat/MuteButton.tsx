import { NOTIFY_MUTED_FLAG, NOTIFY_UNMUTED_FLAG } from './constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { BellIcon, BellOffIcon } from '../../shared/ui/icons';
import { useUi } from '../../shared/ui/uiContext';
import type { Session } from '../../shared/chat/types';
import { setNotificationFlag } from './chatApi';
import { isMuted } from './rules';
import { announceSession } from './sessionUpdates';
import { setMuted } from './unseen';

interface MuteButtonProps {
  session: Session;
  /** The settings panel spells the state out; the header shows the icon alone. */
  withLabel?: boolean;
}

export function MuteButton({ session, withLabel = false }: MuteButtonProps) {
  const ui = useUi();
  const muted = isMuted(session.notification_flag);
  const toggle = useAsyncAction(async () => {
    try {
      const reply = await setNotificationFlag(session._id, muted ? NOTIFY_UNMUTED_FLAG : NOTIFY_MUTED_FLAG);
      const flag = reply.session_user.notification_flag;
      // A muted chat keeps its badge but no longer raises the red dot on Chats.
      setMuted(session._id, isMuted(flag));
      // The window, the chat list under it and any other copy of the chat show it now.
      announceSession({ _id: session._id, notification_flag: flag });
    } catch (error) {
      ui.showError(error);
    }
  });
  const label = muted ? 'Unmute notifications' : 'Mute notifications';
  return (
    <button
      type="button"
      aria-label={withLabel ? undefined : label}
      aria-pressed={muted}
      disabled={toggle.busy}
      onClick={() => void toggle.run()}
      className={
        withLabel
          ? 'flex w-full items-center gap-3 rounded-xl bg-slate-50 px-3 py-2.5 text-sm font-medium hover:bg-slate-100'
          : 'rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800'
      }
    >
      {muted ? <BellOffIcon /> : <BellIcon />}
      {withLabel && label}
    </button>
  );
}
