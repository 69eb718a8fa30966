// Agora's service worker (hand-written; see docs/decisions.md, "Web push").
//
// - Offline: navigations go to the network first and fall back to the cached app shell;
//   the shell's fingerprinted assets are cached when first seen (their names never change).
//   Nothing else is intercepted: API replies, sockets and uploads are never cached.
// - Push: every push shows a notification (browsers revoke subscriptions whose pushes show
//   nothing; who gets one is decided by the server). A click opens the chat it is about.
//   A push's `receipt` goes back to the server: its messages reached this device, so their
//   senders see "Delivered" before the app is opened.
// - A renewed subscription is reported to the server at once.

const CACHE = 'agora-shell-v1';
const SHELL_URL = '/';
const NO_CACHE_PREFIXES = [
  '/api/', '/user/', '/session/', '/realtime/', '/socket.io', '/uploads/', '/get_by_ids',
  '/get_upload_url', '/update_push_token', '/url_preview', '/jserror', '/push/',
];

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** The page and the scripts and styles it names: what opening the app offline needs. */
async function cacheShell(response) {
  const cache = await caches.open(CACHE);
  const page = response ?? (await fetch(SHELL_URL, { cache: 'no-cache' }));
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put(SHELL_URL, page);
  const assets = [...html.matchAll(/(?:src|href)="(\/(?:assets|icons)\/[^"]+|\/manifest\.webmanifest|\/favicon\.svg)"/g)].map((m) => m[1]);
  await Promise.all(
    assets.map(async (url) => {
      if (!(await cache.match(url))) await cache.add(url).catch(() => undefined);
    }),
  );
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (NO_CACHE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(request));
  } else if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(cacheFirst(request));
  }
});

async function navigate(request) {
  try {
    const response = await fetch(request);
    // Every page of the app is the same shell: keep the newest.
    if (response.ok && response.headers.get('content-type')?.includes('text/html')) {
      const copy = response.clone();
      void cacheShell(copy).catch(() => undefined);
    }
    return response;
  } catch (error) {
    const shell = await caches.match(SHELL_URL);
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    void cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(readPush(event.data)));
});

function readPush(data) {
  try {
    const push = data ? data.json() : {};
    return push && typeof push === 'object' ? push : {};
  } catch {
    return { body: data ? data.text() : '' };
  }
}

async function showPush(push) {
  const acknowledged = acknowledge(push.receipt);
  const sessionId = typeof push.session_id === 'string' ? push.session_id : '';
  const options = {
    body: push.body || 'You have a new message',
    tag: sessionId ? `chat:${sessionId}` : 'agora',
    renotify: true,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: typeof push.url === 'string' && push.url.startsWith('/') ? push.url : '/chats', session_id: sessionId },
  };
  // The badge goes beside the notification, not before it: a badge the platform is slow to set
  // must not hold back what the person sees.
  const badged =
    self.navigator.setAppBadge && typeof push.red_dot === 'number'
      ? self.navigator.setAppBadge(push.red_dot).catch(() => undefined)
      : undefined;
  await Promise.all([self.registration.showNotification(push.title || 'Agora', options), badged, acknowledged]);
}

/** Tells the server the push arrived (the worker has no auth key: the receipt names its reader). */
async function acknowledge(receipt) {
  if (typeof receipt !== 'string' || !receipt) return;
  await fetch('/push/delivered', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ receipts: [receipt] }),
  }).catch(() => undefined);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openChat(event.notification.data ?? {}));
});

async function openChat({ url = '/chats', session_id: sessionId = '' }) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    // The page opens the chat without a reload (see features/push/serviceWorker.ts).
    open.postMessage({ type: 'open_chat', session_id: sessionId, url });
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(resubscribe(event));
});

async function resubscribe(event) {
  const old = event.oldSubscription;
  const key = old?.options?.applicationServerKey ?? (await serverKey());
  const subscription = event.newSubscription ?? (await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  // The worker has no auth key: the pages report it (they hold the key), or, with none
  // open, the next app load does (it compares the subscription with the one it sent).
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: 'subscription_changed', subscription: JSON.stringify(subscription) });
}

async function serverKey() {
  const reply = await fetch('/push/info');
  const info = await reply.json();
  const padded = info.public_key.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(padded + '='.repeat((4 - (padded.length % 4)) % 4)), (c) => c.charCodeAt(0));
}
