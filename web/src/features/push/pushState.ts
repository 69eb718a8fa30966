import { useSyncExternalStore } from 'react';

/** The spec's shared flags: push supported, the current subscription, app installable. */
export interface PushState {
  /** The service worker is ready and its registration supports push. */
  supported: boolean;
  /** `JSON.stringify` of the current push subscription, or null without one. */
  subscription: string | null;
  permission: NotificationPermission | 'unsupported';
  /** The browser raised its install prompt (kept, the default one suppressed). */
  installable: boolean;
  /** A "Turn on notifications" press is in progress. */
  busy: boolean;
  /**
   * Why the last press did not subscribe: `unavailable`, the browser refused to (a private
   * window, a browser without a push service: pressing again cannot help); `unreachable`, the
   * app's server could not be reached (it may, later).
   */
  failure: PushFailure | null;
}

export type PushFailure = 'unavailable' | 'unreachable';

let state: PushState = {
  supported: false,
  subscription: null,
  permission: typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  installable: false,
  busy: false,
  failure: null,
};
const listeners = new Set<() => void>();

export function getPushState(): PushState {
  return state;
}

export function setPushState(change: Partial<PushState>): void {
  state = { ...state, ...change };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePushState(): PushState {
  return useSyncExternalStore(subscribe, () => state);
}
