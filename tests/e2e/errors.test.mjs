import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiLogin, launch, newPage, screenshot, seriousViolations } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`an unknown route shows the error page (${label})`, async () => {
    const page = await newPage(browser, viewport);
    await page.goto(`${BASE_URL}/no/such/page`);
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await page.getByText('There is no page at this address.').waitFor();
    // The address may break anywhere; the words around it only between words (a phone cut "old" in two).
    const cutWords = await page.getByText('Nothing lives at').evaluate((paragraph) => {
      const cut = [];
      const texts = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        if (node.parentElement !== paragraph) continue;
        for (const word of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (range.getClientRects().length > 1) cut.push(word[0]);
        }
      }
      return cut;
    });
    assert.deepEqual(cutWords, []);
    // In the app's frame, with its menu, and readable by everyone.
    await page.getByRole('banner').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'error');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL(`${BASE_URL}/landing`);
    await page.context().close();
  });
}

test('an auth_key link is kept as a cookie and dropped from the address', async () => {
  // A real key: an unknown one is rightly dropped as soon as the server refuses it.
  const key = await apiLogin('Linda');
  const page = await newPage(browser);
  await page.goto(`${BASE_URL}/landing?auth_key=${encodeURIComponent(key)}&ref=mail`);
  await page.waitForURL(`${BASE_URL}/landing?ref=mail`);
  const cookie = (await page.context().cookies()).find((entry) => entry.name === 'auth_key');
  assert.equal(cookie?.value, encodeURIComponent(key));
  assert.equal(cookie?.path, '/');
  assert.equal(cookie?.sameSite, 'Lax');
  await page.context().close();
});

/**
 * A page whose app was built before a release: the parts it loads on demand are gone from the
 * server (refused while `old.gone`). Service workers are kept out, as their cache would serve
 * the old files.
 */
async function pageOfAnOldBuild(viewport) {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block', isMobile: viewport.width < 600, hasTouch: viewport.width < 600 });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error));
  await page.goto(`${BASE_URL}/chats`);
  await page.getByText('Log in to see your chats and the people you talk with.').waitFor();
  const loaded = new Set((await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))).map((url) => new URL(url).pathname));
  const old = { gone: true, reloads: 0 };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) old.reloads += 1;
  });
  await page.route('**/assets/*.js', (route) => {
    const path = new URL(route.request().url()).pathname;
    return !loaded.has(path) && old.gone ? route.abort() : route.continue();
  });
  return { page, old };
}

/** Goes to Change Location through the menu, whose page loads on demand. */
async function openChangeLocation(page) {
  if (page.viewportSize().width < 600) await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Change Location' }).click();
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`after a release, a page from the old build reloads once onto the new one (${label})`, async () => {
    const { page, old } = await pageOfAnOldBuild(viewport);
    // The new build is there for the page the reload brings.
    page.on('request', (request) => {
      if (request.isNavigationRequest()) old.gone = false;
    });
    await openChangeLocation(page);
    await page.getByRole('heading', { name: 'Please Select your City' }).waitFor();
    assert.equal(old.reloads, 1);
    assert.equal(await page.getByText(/dynamically imported module/).count(), 0);
    await page.context().close();
  });

  test(`when the new build cannot be loaded either, the page says a new version is out and offers a reload (${label})`, async () => {
    const { page, old } = await pageOfAnOldBuild(viewport);
    await openChangeLocation(page);
    await page.getByText('A new version of Agora is out.').waitFor();
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    // Reloaded once, then told: no reloading in circles.
    assert.equal(old.reloads, 1);
    assert.equal(await page.getByText(/dynamically imported module/).count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'error-new-version');
    old.gone = false;
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Please Select your City' }).waitFor();
    await page.context().close();
  });
}
