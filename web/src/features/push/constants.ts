// Web push's and the offline notice's texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

// --- Web push and installing the app ---
export const PUSH_OS_TYPE = 'WEB_PUSH';
export const SERVICE_WORKER_URL = '/sw.js';
export const TURN_ON_NOTIFICATIONS = 'Turn on notifications';
export const NOTIFICATIONS_ON_TEXT = 'Notifications are on for new messages and offers.';
export const NOTIFICATIONS_DENIED_TEXT =
  "Notifications are blocked for this site. Allow them in your browser's site settings (the icon beside the address), then come back. A private window keeps them blocked: open Agora in a normal window.";
export const NOTIFICATIONS_UNSUPPORTED_TEXT =
  'This browser cannot show notifications from Agora. Installing the app, or another browser, may.';
export const NOTIFICATIONS_HINT = 'Hear about new messages and offers even when Agora is closed.';
export const NOTIFICATIONS_UNAVAILABLE_TEXT =
  'This browser window cannot receive notifications: private windows, and some browsers, have no way to. Open Agora in a normal window of Chrome, Edge, Firefox or Safari, or install the app, and turn them on there.';
export const NOTIFICATIONS_UNREACHABLE_TEXT = 'Agora could not be reached to turn on notifications. Check your connection, then press again.';
export const OFFLINE_NOTICE = 'You are offline. Showing what this device remembers; new messages arrive when you are back online.';
