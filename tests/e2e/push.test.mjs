// The installable app and web push in Chromium: the manifest and its icons, the service
// worker, a push delivered through the DevTools protocol shown as a notification, the
// "Install app" item after the browser's install prompt, the offline shell, and a browser that
// cannot receive notifications.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiLogin, deliverPush, launch, newPage, screenshot, seriousViolations, serviceWorkerOf } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch({ notifications: true });
});
after(async () => {
  await browser?.close();
});

/** A signed-in page at `path` whose service worker controls it. */
async function signedInPage(viewport, path = '/chats') {
  const page = await newPage(browser, viewport);
  const key = await apiLogin('Pia');
  await page.context().addInitScript((authKey) => window.localStorage.setItem('agora.auth_key', authKey), key);
  await page.goto(`${BASE_URL}${path}`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  page.authKey = key;
  return page;
}

/** The notifications the page's service worker shows. */
function notificationsShown(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((n) => ({ title: n.title, tag: n.tag, body: n.body, url: n.data.url }));
  });
}

/** Whether the page's service worker shows a notification within `timeoutMs` (it shows it a moment
 * after the push; an async predicate given to waitForFunction resolved on its first look, null
 * under load, so this polls itself). */
async function untilNotificationShown(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await notificationsShown(page)).length) {
    if (Date.now() > deadline) return false;
    await page.waitForTimeout(50);
  }
  return true;
}

function pngSize(bytes) {
  // Width and height sit at bytes 16-23 of the IHDR chunk, big-endian.
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

test('the manifest is valid and every icon it names loads at its size', async () => {
  const page = await newPage(browser);
  await page.goto(`${BASE_URL}/`);
  const cdp = await page.context().newCDPSession(page);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  assert.equal(url, `${BASE_URL}/manifest.webmanifest`);
  assert.deepEqual(errors, []);
  const manifest = JSON.parse(data);
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  assert.ok(manifest.name && manifest.short_name && manifest.theme_color && manifest.background_color);
  const purposes = new Set(manifest.icons.map((icon) => icon.purpose));
  assert.ok(purposes.has('maskable'));
  for (const icon of manifest.icons) {
    const reply = await fetch(new URL(icon.src, BASE_URL));
    assert.equal(reply.status, 200, icon.src);
    assert.equal(reply.headers.get('content-type'), 'image/png');
    assert.equal(pngSize(new Uint8Array(await reply.arrayBuffer())), icon.sizes);
  }
  assert.deepEqual(
    manifest.icons.map((icon) => icon.sizes),
    ['192x192', '512x512', '512x512'],
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a push delivered to the service worker shows a notification tagged by chat', async () => {
  const page = await signedInPage(VIEWPORTS.desktop);
  const { cdp, registrationId } = await serviceWorkerOf(page);
  const push = {
    session_id: 'r_item1_user2',
    title: 'Blue bicycle',
    sender_name: 'Arun',
    body: 'Arun: Is it still for sale?',
    count: 1,
    url: '/chats?session_id=r_item1_user2',
    red_dot: 2,
  };
  await deliverPush(cdp, registrationId, push, (timeoutMs) => untilNotificationShown(page, timeoutMs));
  assert.deepEqual(await notificationsShown(page), [
    { title: 'Blue bicycle', tag: 'chat:r_item1_user2', body: 'Arun: Is it still for sale?', url: push.url },
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the service worker never answers API calls from its cache', async () => {
  const page = await signedInPage(VIEWPORTS.desktop);
  await page.reload();
  await page.evaluate(() => fetch('/user/me'));
  const cached = await page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  assert.ok(cached.includes('/'), cached.join(' '));
  assert.ok(cached.some((path) => path.startsWith('/assets/')), cached.join(' '));
  assert.ok(!cached.some((path) => /^\/(api|user|session|push|realtime)\//.test(path)), cached.join(' '));
  await page.context().close();
});

test('opened offline, the app shows its shell with an offline notice', async () => {
  const page = await signedInPage(VIEWPORTS.phone);
  await page.reload();
  await page.context().setOffline(true);
  await page.reload();
  await page.getByTestId('offline-notice').waitFor();
  await page.getByRole('banner').waitFor();
  await screenshot(page, 'push-offline', { fullPage: false });
  await page.context().setOffline(false);
  await page.context().close();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`notification controls and the install item (${label})`, async () => {
    const page = await signedInPage(viewport);
    const control = page.getByTestId('notifications-control');
    await control.getByRole('button', { name: 'Turn on notifications' }).waitFor();
    await screenshot(page, 'push-chats-notifications', { fullPage: false });

    // The browser offers installation: its own prompt is suppressed, ours is in the menu.
    const suppressed = await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      event.prompt = async () => {
        window.__installPrompted = true;
      };
      event.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    assert.equal(suppressed, true);
    if (viewport.width < 600) await page.getByRole('button', { name: 'Menu' }).click();
    const install = page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Install app' });
    await install.waitFor();
    await screenshot(page, 'push-install-item', { fullPage: false });
    await install.click();
    assert.equal(await page.evaluate(() => window.__installPrompted), true);
    await install.waitFor({ state: 'detached' });

    // A person who blocked notifications is told how to allow them.
    const pageSession = await page.context().newCDPSession(page);
    const { targetInfo } = await pageSession.send('Target.getTargetInfo');
    await (await browser.newBrowserCDPSession()).send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: BASE_URL,
      browserContextId: targetInfo.browserContextId,
    });
    await page.goto(`${BASE_URL}/profile`);
    await page.getByTestId('notifications-control').getByText('Notifications are blocked for this site').waitFor();
    await screenshot(page, 'push-profile-notifications', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a browser that cannot receive notifications says so and where they work, not "try again" (${label})`, async () => {
    const page = await signedInPage(viewport);
    await page.context().grantPermissions(['notifications'], { origin: BASE_URL });
    const control = page.getByTestId('notifications-control');
    await control.getByRole('button', { name: 'Turn on notifications' }).click();
    // This Chromium has no push service to sign up with, as private windows and some browsers have none.
    await control.getByText('This browser window cannot receive notifications').waitFor();
    assert.equal(await control.getByRole('button', { name: 'Turn on notifications' }).count(), 0);
    assert.equal(await control.getByText(/try again/i).count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'push-unavailable', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

/** POSTs to the API as the holder of `key`. */
async function call(key, path, body) {
  const reply = await fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const data = await reply.json();
  assert.equal(reply.status, 200, JSON.stringify(data));
  return data;
}

test("a notification's link opens its chat over the chat list", async () => {
  const ownerKey = await apiLogin('Olga');
  const { group } = await call(ownerKey, '/api/group?action=create', { title: `Bikes ${Date.now()}`, tags: ['Books'], is_public: true });
  const { item } = await call(ownerKey, '/api/item?action=create', { group_id: group._id, title: 'Blue bicycle' });
  const page = await signedInPage(VIEWPORTS.phone, '/');
  const me = await fetch(`${BASE_URL}/user/me`, { headers: { Authorization: `Bearer ${page.authKey}` } });
  const chatId = `r_${item._id}_${(await me.json()).user._id}`;
  await call(page.authKey, '/session/send', { dest_session_id: chatId, payload: 'Is it for sale?', local_id: 'first' });

  await page.goto(`${BASE_URL}/chats?session_id=${chatId}`);
  const window = page.getByTestId('chat-window');
  await window.waitFor();
  await window.getByText('Is it for sale?').waitFor();
  assert.equal(new URL(page.url()).search, '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
