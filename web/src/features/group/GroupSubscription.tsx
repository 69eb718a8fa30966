import { MEMBER_TYPES } from '../../shared/constants';
import { MANAGE_SUBSCRIPTION_TEXT, SUBSCRIBED_TEXT, SUBSCRIPTION_ACTIVE } from './constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { leaveAppFor } from '../../shared/navigation';
import { Button } from '../../shared/ui/Button';
import { useUi } from '../../shared/ui/uiContext';
import type { Group } from '../../shared/entities/group';
import { manageSubscription } from './groupApi';

/**
 * The group screen's subscription link: 'Subscribed' while the subscription is active, and
 * for admins 'Manage subscription', which goes to the provider's checkout (not yet
 * subscribed) or its billing portal (subscribed).
 */
export function GroupSubscription({ group }: { group: Group }) {
  const ui = useUi();
  const subscribed = group.data.subscription_status === SUBSCRIPTION_ACTIVE;
  const manage = useAsyncAction(async () => {
    try {
      const { redirect_url: url } = await manageSubscription(group._id);
      leaveAppFor(url);
    } catch (error) {
      ui.showError(error);
    }
  });
  const isAdmin = group.session_user_type === MEMBER_TYPES.admin;
  if (!subscribed && !isAdmin) return null;
  return (
    <>
      {subscribed && (
        <span className="inline-flex h-8 items-center rounded-full bg-emerald-50 px-3 text-xs font-semibold text-emerald-800">
          ✓ {SUBSCRIBED_TEXT}
        </span>
      )}
      {isAdmin && (
        <Button variant="ghost" size="sm" busy={manage.busy} onClick={() => void manage.run()} className="text-brand-700 underline-offset-2 hover:underline">
          {MANAGE_SUBSCRIPTION_TEXT}
        </Button>
      )}
    </>
  );
}
