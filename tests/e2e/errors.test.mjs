import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiLogin, launch, newPage, screenshot } from './helpers.mjs';

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
    await page.getByText('404 Not Found').waitFor();
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
