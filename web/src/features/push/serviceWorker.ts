import { SERVICE_WORKER_URL } from './constants';
import { fetchPushInfo, keyBytes } from './pushApi';
import { getPushState, setPushState, type PushFailure } from './pushState';
import { forgetPushToken } from './pushToken';

interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let installPrompt: InstallPromptEvent | null = null;
/** Where the worker's "open this chat" requests go (the router, once it is up). */
let chatOpener: (url: string) => void = (url) => window.location.assign(url);

export function setChatOpener(open: (url: string) => void): void {
  chatOpener = open;
}

/**
 * Registers the service worker and keeps the shared flags: push supported once it is ready
 * and supports push, the current subscription read, installable when the browser offers
 * to install (its own prompt suppressed, ours saved for the "Install app" item).
 */
export function installPwa(onAuthChanged: (listener: () => void) => void, hasAuthKey: () => boolean): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installPrompt = event as InstallPromptEvent;
    setPushState({ installable: true });
  });
  window.addEventListener('appinstalled', () => {
    installPrompt = null;
    setPushState({ installable: false });
  });
  onAuthChanged(() => {
    if (!hasAuthKey()) forgetPushToken();
  });
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; url?: string; subscription?: string } | null;
    if (data?.type === 'open_chat' && data.url?.startsWith('/')) chatOpener(data.url);
    if (data?.type === 'subscription_changed' && data.subscription) setPushState({ subscription: data.subscription });
  });
  navigator.serviceWorker.register(SERVICE_WORKER_URL).catch(() => undefined);
  void navigator.serviceWorker.ready.then(async (registration) => {
    if (!('pushManager' in registration)) return;
    const subscription = await registration.pushManager.getSubscription();
    setPushState({ supported: true, subscription: subscription ? JSON.stringify(subscription) : null });
  });
}

/** From a person's gesture only: asks for permission, then subscribes. */
export async function turnOnNotifications(): Promise<void> {
  if (typeof Notification === 'undefined' || !getPushState().supported) return;
  setPushState({ busy: true, failure: null });
  try {
    const permission = await Notification.requestPermission();
    setPushState({ permission });
    if (permission !== 'granted') return;
    const registration = await navigator.serviceWorker.ready;
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes((await fetchPushInfo()).public_key),
      }));
    setPushState({ subscription: JSON.stringify(subscription) });
  } catch (error) {
    setPushState({ failure: pushFailure(error) });
  } finally {
    setPushState({ busy: false });
  }
}

/**
 * Why subscribing failed. The browser refuses with a DOMException (Chrome's private windows
 * and browsers without a push service: "AbortError: Registration failed - push service not
 * available"; permission withheld: NotAllowedError), which pressing again does not change;
 * anything else is the app's server not answering (the key's request).
 */
export function pushFailure(error: unknown): PushFailure {
  return error instanceof DOMException ? 'unavailable' : 'unreachable';
}

/** Shows the browser's install dialog saved from `beforeinstallprompt`. */
export async function promptInstall(): Promise<void> {
  const saved = installPrompt;
  if (!saved) return;
  installPrompt = null;
  setPushState({ installable: false });
  // A prompt shows once; if dismissed, the browser raises a new event when it sees fit.
  await saved.prompt();
}
