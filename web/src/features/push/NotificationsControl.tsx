import { NOTIFICATIONS_DENIED_TEXT, NOTIFICATIONS_UNAVAILABLE_TEXT, NOTIFICATIONS_UNREACHABLE_TEXT, NOTIFICATIONS_HINT, NOTIFICATIONS_ON_TEXT, NOTIFICATIONS_UNSUPPORTED_TEXT, TURN_ON_NOTIFICATIONS } from './constants';
import { buttonClass } from '../../shared/ui/Button';
import { usePushState } from './pushState';
import { turnOnNotifications } from './serviceWorker';

const box = 'flex flex-wrap items-center gap-3 rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200';

/** "Turn on notifications", or why it cannot be (permission is asked only on this press). */
export function NotificationsControl() {
  const { supported, subscription, permission, busy, failure } = usePushState();
  if (failure === 'unavailable') {
    // Trying again cannot help here: say why, and where it works.
    return (
      <p className={`${box} text-amber-800`} role="status" data-testid="notifications-control">
        {NOTIFICATIONS_UNAVAILABLE_TEXT}
      </p>
    );
  }
  if (permission === 'unsupported' || (!supported && permission !== 'denied')) {
    return (
      <p className={`${box} text-slate-600`} data-testid="notifications-control">
        {NOTIFICATIONS_UNSUPPORTED_TEXT}
      </p>
    );
  }
  if (permission === 'denied') {
    return (
      <p className={`${box} text-amber-800`} role="status" data-testid="notifications-control">
        {NOTIFICATIONS_DENIED_TEXT}
      </p>
    );
  }
  if (permission === 'granted' && subscription) {
    return (
      <p className={`${box} text-slate-600`} data-testid="notifications-control">
        <span aria-hidden="true">🔔</span> {NOTIFICATIONS_ON_TEXT}
      </p>
    );
  }
  return (
    <div className={box} data-testid="notifications-control">
      <p className="min-w-0 flex-1 text-slate-700">
        {NOTIFICATIONS_HINT}
        {failure === 'unreachable' && (
          <span role="alert" className="mt-1 block text-red-700">
            {NOTIFICATIONS_UNREACHABLE_TEXT}
          </span>
        )}
      </p>
      <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => void turnOnNotifications()}>
        {TURN_ON_NOTIFICATIONS}
      </button>
    </div>
  );
}
