import { useSyncExternalStore } from 'react';
import { OFFLINE_NOTICE } from '../../shared/constants';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Shown over the app shell while the device is offline (the installed app opens offline). */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  if (online) return null;
  return (
    <p role="status" data-testid="offline-notice" className="sticky top-0 z-50 bg-amber-100 px-4 py-2 text-center text-sm text-amber-900">
      {OFFLINE_NOTICE}
    </p>
  );
}
