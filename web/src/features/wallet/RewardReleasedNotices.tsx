import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import { useCurrentUser } from '../../shared/session/currentUser';
import { useUi } from '../../shared/ui/uiContext';
import { isRewardReleased, releasedNoticeText } from './holds';

/** Tells the signed-in poster, wherever they are in the app, when a post's held reward came back to their wallet. */
export function RewardReleasedNotices() {
  const { user } = useCurrentUser();
  const ui = useUi();
  useSocketEvent<unknown>('reward_released', (event) => {
    if (isRewardReleased(event)) ui.toast(releasedNoticeText(event));
  }, Boolean(user));
  return null;
}
