// Issue 29, item 10: one way to write amounts everywhere (points as currencies: "2.50", never
// "2.5"), and post titles that a phone shows whole enough to read; toasts that leave the
// header's controls free on a phone (two at once stacked over it).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, pageAs, screenshot, seriousViolations, uniqueEmail } from './helpers.mjs';
import { chatWindow, offerConfirm } from './chatHelpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A group of Olga's with one post, and Bram asking about it in the post's chat. */
async function postWithChat(title, offer) {
  const ownerKey = await apiLogin('Olga Owner', uniqueEmail('olga'));
  const askerKey = await apiLogin('Bram Asker', uniqueEmail('bram'));
  const { group } = await apiCall(ownerKey, '/api/group?action=create', { title: 'Oost neighbours', description: '', is_public: true });
  const { item } = await apiCall(ownerKey, '/api/item?action=create', { group_id: group._id, title, ...offer });
  const { chats } = await apiCall(askerKey, `/api/chats/${item._id}`, { route_id: item.route_id });
  await apiCall(askerKey, '/session/send', { dest_session_id: chats[0].session._id, payload: 'I can help.', local_id: `small-${Date.now()}` });
  return { ownerKey, askerKey, groupId: group._id, item };
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`an amount of points with cents reads the same everywhere: button, notice, wallet and ledger (${label})`, async () => {
    const { ownerKey, item } = await postWithChat('Water my plants', { offer_amount: 2.5, offer_currency: 'POINTS', finder_fee_percent: 0 });
    const owner = await pageAs(browser, ownerKey, viewport);
    await owner.goto(`${BASE_URL}/r/${item.route_id}`);
    await owner.getByRole('button', { name: 'View Chats' }).click();
    const window = chatWindow(owner);
    await window.getByText('I can help.').waitFor();
    await window.getByRole('button', { name: 'Give offer 🪙 2.50' }).click();
    await offerConfirm(owner).getByRole('button', { name: 'Confirm' }).click();
    // The server writes the notice; it writes the amount as the app does (it said "🪙 2.5").
    await window.locator('[data-message-type="notice"]', { hasText: 'Olga Owner gave an offer of 🪙 2.50 to Bram Asker' }).waitFor();
    await screenshot(owner, 'money-notice', { fullPage: false });

    // Starter points and today's point, less the offer.
    await owner.goto(`${BASE_URL}/profile`);
    const points = owner.getByTestId('wallet').filter({ hasText: 'Points' });
    await points.getByText('🪙 98.50').waitFor();
    await points.getByRole('button', { name: /Points/ }).click();
    const ledger = owner.getByRole('dialog', { name: 'Transaction History' });
    // The post held the reward when it went up; the offer was then paid from that hold.
    await ledger.getByTestId('ledger-entry').filter({ hasText: "Reward held for 'Water my plants'" }).getByText('-🪙 2.50').waitFor();
    assert.deepEqual(await seriousViolations(owner), []);
    await screenshot(owner, 'money-ledger', { fullPage: false });
    assert.deepEqual(owner.errors, []);
    await owner.context().close();
  });
}

test('on a phone a long post title wraps to two lines in the feed and shows whole on its page', async () => {
  const title = 'Looking for someone to fix the brakes and gears of my old Dutch city bike before Friday';
  const { ownerKey, groupId, item } = await postWithChat(title, { offer_amount: 15, offer_currency: 'POINTS' });
  const page = await pageAs(browser, ownerKey, VIEWPORTS.phone);
  await page.goto(`${BASE_URL}/${groupId}`);
  const heading = page.getByRole('heading', { level: 2, name: title });
  await heading.waitFor();
  // Not cut to one line after a few characters: it wraps, at most two lines.
  const box = await heading.evaluate((element) => {
    const style = getComputedStyle(element);
    return { whiteSpace: style.whiteSpace, height: element.getBoundingClientRect().height, lineHeight: parseFloat(style.lineHeight) };
  });
  assert.notEqual(box.whiteSpace, 'nowrap');
  assert.ok(box.height >= 2 * box.lineHeight - 1, JSON.stringify(box));
  assert.ok(box.height <= 2 * box.lineHeight + 1, JSON.stringify(box));
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'feed-long-title', { fullPage: false });

  await page.goto(`${BASE_URL}/r/${item.route_id}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await screenshot(page, 'post-long-title', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Whether the point at the middle of `locator` reaches it (or what is inside it), not something above it. */
const reachable = (locator) =>
  locator.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    const top = document.elementFromPoint(x + width / 2, y + height / 2);
    return element === top || element.contains(top);
  });

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`toasts stack below the header and leave its controls free: closing a post with a held reward (${label})`, async () => {
    const key = await apiLogin('Pia Poster', uniqueEmail('pia'));
    const { group } = await apiCall(key, '/api/group?action=create', { title: 'Dog people', description: '', is_public: true });
    const { item } = await apiCall(key, '/api/item?action=create', { group_id: group._id, title: 'Walk my dog', offer_amount: 40, offer_currency: 'POINTS', finder_fee_percent: 10 });
    const page = await pageAs(browser, key, viewport);
    await page.goto(`${BASE_URL}/r/${item.route_id}`);
    await page.getByRole('button', { name: 'Close post' }).click();
    await page.getByRole('dialog', { name: /^Close this post\?/ }).getByRole('button', { name: 'Confirm' }).click();
    // Two toasts at once: the reward's release (from the server) and the closing itself.
    const toasts = page.getByRole('status').filter({ hasText: /^Reward released: 'Walk my dog' closed\.|^Post closed\./ });
    await toasts.filter({ hasText: 'Reward released' }).waitFor();
    await toasts.filter({ hasText: 'Post closed.' }).waitFor();

    const header = await page.getByRole('banner').boundingBox();
    for (const toast of await toasts.all()) {
      const box = await toast.boundingBox();
      assert.ok(box.y >= header.y + header.height, `a toast at ${box.y}px covers the header (down to ${header.y + header.height}px)`);
    }
    // The header's controls (on a phone the menu and the profile) still take a tap.
    const controls = viewport.width < 600 ? [page.getByRole('button', { name: 'Menu' }), page.getByRole('link', { name: 'Your profile' })] : [page.getByRole('banner').getByRole('link').first()];
    for (const control of controls) assert.ok(await reachable(control), await control.evaluate((element) => element.outerHTML.slice(0, 80)));
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'toasts-below-header', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
