// What a new user tripped over in chat (issue 13): ticks after a reload, live blocking,
// unread counts on a minimized chat, message info on the desktop, image chats, deleted posts;
// and of the second walk (issue 29): unseen messages where the eye is on a phone, "Delivered"
// when the reader comes back later (the chat list, a push to the service worker), and the chat
// basics people expect (images in the viewer, muted chats, Escape and focus, the list beside).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiAs, chatPush, chatWindow, itemChatByApi, send, tick } from './chatHelpers.mjs';
import { BASE_URL, VIEWPORTS, deliverPush, launch, longPress, screenshot, screenshotBoth, seriousViolations, serviceWorkerOf, shownWithin } from './helpers.mjs';
import { png } from './png.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The asker reloads the post, its chat open. */
async function reopen(page) {
  await page.reload();
  // The open chat comes back by itself after a reload (issue 42).
  await chatWindow(page).waitFor();
}

test('ticks: delivered while the other is online elsewhere, read once they open the chat, both after a reload', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Fix my bike', 'A flat tyre.');
  // The owner's screen shows the post, not the chat: it receives the message all the same.
  const question = await send(asker, 'Is it the front tyre?');
  await tick(question, 'Delivered').waitFor();
  await reopen(asker);
  const reloaded = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' });
  await tick(reloaded, 'Delivered').waitFor();

  await owner.getByRole('button', { name: 'View Chats' }).click();
  await chatWindow(owner).getByText('Is it the front tyre?').waitFor();
  await tick(reloaded, 'Read').waitFor();
  // Typing reaches the window showing the chat (the server sends it to such tabs only).
  await chatWindow(asker).getByRole('textbox', { name: 'Message' }).fill('Or is it the back one');
  await chatWindow(owner).getByText('Bram Asker is typing…').waitFor();
  await reopen(asker);
  await tick(chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' }), 'Read').waitFor();
  await screenshot(asker, 'chat-ticks-after-reload', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-ticks-after-reload', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

test('blocking is live: the blocked member\'s composer gives way at once and comes back on unblock', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Paint a fence', 'Ten metres, white.');
  const offer = await send(asker, 'I can do it on Saturday.');
  await tick(offer, 'Delivered').waitFor();
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const ownerWindow = chatWindow(owner);
  await ownerWindow.getByText('I can do it on Saturday.').waitFor();
  await ownerWindow.getByRole('button', { name: 'Chat settings' }).click();
  const settings = ownerWindow.getByRole('region', { name: 'Chat settings' });
  // The asker's other tab shows Your Chats, loaded before the block.
  const list = await asker.context().newPage();
  list.errors = [];
  list.on('pageerror', (error) => list.errors.push(error));
  await list.goto(asker.url().replace(/\/r\/.*$/, '/chats'));
  const row = list.getByTestId('chat-row').filter({ hasText: 'Paint a fence' });
  await row.waitFor();

  await settings.getByRole('button', { name: 'Block', exact: true }).click();
  await owner.getByRole('dialog', { name: 'Are you sure you want to block Bram Asker ?' }).getByRole('button', { name: 'Confirm' }).click();
  const askerWindow = chatWindow(asker);
  await askerWindow.getByText('You cannot send messages here.').waitFor();
  await row.click();
  await chatWindow(list).getByText('You cannot send messages here.').waitFor();
  assert.equal(await askerWindow.getByRole('textbox', { name: 'Message' }).count(), 0);
  await screenshot(asker, 'chat-blocked', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-blocked', { fullPage: false });

  await settings.getByRole('button', { name: 'Unblock', exact: true }).click();
  await askerWindow.getByRole('textbox', { name: 'Message' }).waitFor();
  await chatWindow(list).getByRole('textbox', { name: 'Message' }).waitFor();
  await send(asker, 'Thanks!');
  for (const page of [owner, asker, list]) assert.deepEqual(page.errors, []);
});

test("a deleted post's chat: history readable, no offer button, a clear line, no 404", async () => {
  const { owner, asker, postUrl } = await itemChatByApi(browser, 'Sell my lamp', 'Brass, works.', { offerAmount: 5 });
  const question = await send(asker, 'Is the lamp still there?');
  await tick(question, 'Delivered').waitFor();
  const failures = [];
  owner.on('response', (reply) => {
    if (reply.status() >= 400) failures.push(`${reply.status()} ${reply.url()}`);
  });
  const route = await apiAs(owner, `/api/r/${postUrl.split('/r/')[1]}`);
  const deleted = await apiAs(owner, '/api/item?action=delete', { item_id: route.body.item._id });
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));

  for (const page of [owner, asker]) {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /Chats/ }).click();
    await page.getByTestId('chat-row').filter({ hasText: 'Sell my lamp' }).click();
    const window = chatWindow(page);
    await window.getByText('This post was deleted').waitFor();
    await window.getByText('Is the lamp still there?').waitFor();
    assert.equal(await window.getByTestId('give-offer').count(), 0);
  }
  await screenshot(owner, 'chat-post-deleted', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.phone);
  await screenshot(owner, 'chat-post-deleted', { fullPage: false });
  assert.deepEqual(failures, []);
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

test('a minimized chat counts what arrives; message info opens from a hover menu and a right click', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Water my plants', 'While I am away for a week.');
  const question = await send(asker, 'How many plants?');
  await tick(question, 'Delivered').waitFor();
  await owner.getByRole('button', { name: 'View Chats' }).click();
  await chatWindow(owner).getByText('How many plants?').waitFor();

  await chatWindow(asker).getByRole('button', { name: 'Minimize chat' }).click();
  await send(owner, 'About twenty.');
  await send(owner, 'Mostly ferns.');
  const bar = asker.getByRole('button', { name: /^Open chat Water my plants/ });
  await bar.getByTestId('minimized-unseen').filter({ hasText: '2' }).waitFor();
  await screenshot(asker, 'chat-minimized-unseen', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-minimized-unseen', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.desktop);
  await bar.click();
  await chatWindow(asker).getByText('Mostly ferns.').waitFor();
  await chatWindow(asker).getByRole('button', { name: 'Minimize chat' }).click();
  assert.equal(await asker.getByTestId('minimized-unseen').count(), 0);
  await asker.getByRole('button', { name: /^Open chat Water my plants/ }).click();

  // Desktop: the menu button shows on hover, and its Message info entry opens the info.
  const mine = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'How many plants?' });
  const mineMenu = mine.locator('xpath=..').getByRole('button', { name: 'Message menu' });
  await mine.hover();
  await mineMenu.click();
  await screenshot(asker, 'chat-message-menu', { fullPage: false });
  await asker.getByRole('menuitem', { name: 'Message info' }).click();
  const info = asker.getByRole('dialog', { name: 'Message info' });
  await info.getByText('Read by').waitFor();
  await info.getByText('Olga Owner').waitFor();
  await screenshot(asker, 'chat-message-info', { fullPage: false });
  await info.getByRole('button', { name: /close/i }).first().click();
  await info.waitFor({ state: 'detached' });
  await mine.click({ button: 'right' });
  await info.getByText('Read by').waitFor();
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-message-info', { fullPage: false });
  await asker.keyboard.press('Escape');
  await info.waitFor({ state: 'detached' });
  await mine.hover();
  await mineMenu.click();
  await screenshot(asker, 'chat-message-menu', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a chat full of images opens at its newest message, and stays where a reader scrolled to (${label})`, async () => {
    const { owner, asker } = await itemChatByApi(browser, `Photos of my garden ${label}`, 'Which plants are these?', { viewport });
    const window = chatWindow(asker);
    for (const round of [1, 2]) {
      const files = [1, 2, 3].map((n) => ({ name: `plant-${round}-${n}.png`, mimeType: 'image/png', buffer: png(90, 300, [40 * n, 140, 60]) }));
      await window.getByLabel('Files', { exact: true }).setInputFiles(files);
      await window.getByRole('button', { name: `Remove plant-${round}-3.png` }).waitFor();
      await tick(await send(asker, `Photos, round ${round}`), 'Delivered').waitFor();
    }
    await tick(await send(asker, 'That is all of them.'), 'Delivered').waitFor();

    // Images arrive late, as over a slow connection: the list must follow them down.
    await asker.route('**/uploads/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await reopen(asker);
    const list = window.getByTestId('message-list');
    await window.getByText('That is all of them.').waitFor();
    await asker.waitForFunction(() => {
      const images = [...document.querySelectorAll('[data-testid="message-list"] img')];
      return images.length === 6 && images.every((image) => image.complete && image.naturalHeight > 0);
    });
    await asker.waitForFunction(() => {
      const element = document.querySelector('[data-testid="message-list"]');
      return element.scrollHeight - element.scrollTop - element.clientHeight < 3;
    });
    await screenshot(asker, 'chat-images-newest', { fullPage: false });

    // A reader who scrolled up keeps their place while a new photo comes in and loads.
    await list.evaluate((element) => {
      element.scrollTop = 0;
    });
    await asker.waitForTimeout(100);
    await owner.getByRole('button', { name: 'View Chats' }).click();
    const ownerWindow = chatWindow(owner);
    await ownerWindow.getByText('That is all of them.').waitFor();
    await ownerWindow.getByLabel('Files', { exact: true }).setInputFiles([{ name: 'answer.png', mimeType: 'image/png', buffer: png(90, 300, [200, 60, 60]) }]);
    await ownerWindow.getByRole('button', { name: 'Remove answer.png' }).waitFor();
    await send(owner, 'This one is a fern.');
    await window.getByText('This one is a fern.').waitFor();
    await asker.waitForFunction(() => {
      const images = [...document.querySelectorAll('[data-testid="message-list"] img')];
      return images.length === 7 && images.every((image) => image.complete && image.naturalHeight > 0);
    });
    assert.equal(await list.evaluate((element) => element.scrollTop), 0);
    for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
  });
}

test('offers: an amount below the minimum is refused, a given offer shows (also after a reload), another is a deliberate choice', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Carry boxes upstairs', 'Ten boxes, third floor.');
  await tick(await send(asker, 'I can help tonight.'), 'Delivered').waitFor();
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const window = chatWindow(owner);
  await window.getByText('I can help tonight.').waitFor();

  await window.getByTestId('give-offer').click();
  const prompt = owner.getByRole('dialog', { name: 'Enter offer amount' });
  await prompt.getByRole('textbox').fill('0.2');
  await prompt.getByRole('button', { name: 'OK' }).click();
  await prompt.getByText('The smallest offer is 0.5').waitFor();
  await screenshot(owner, 'offer-too-small', { fullPage: false });
  await prompt.getByRole('textbox').fill('3');
  await prompt.getByRole('button', { name: 'OK' }).click();
  await owner.getByRole('dialog', { name: 'Confirm Again to proceed with offer.' }).getByRole('button', { name: 'Confirm' }).click();
  await owner.getByText('Offer Successfully given').waitFor();
  await window.getByTestId('offer-given').filter({ hasText: '3' }).waitFor();

  await owner.reload();
  await window.getByTestId('offer-given').filter({ hasText: '3' }).waitFor();
  await window.getByRole('button', { name: /^Give another offer/ }).click();
  const again = owner.getByRole('dialog', { name: 'Give another offer?' });
  await again.waitFor();
  await screenshot(owner, 'offer-give-another', { fullPage: false });
  await again.getByRole('button', { name: 'Cancel' }).click();
  await owner.setViewportSize(VIEWPORTS.phone);
  await window.getByTestId('offer-given').waitFor();
  await screenshot(owner, 'offer-give-another', { fullPage: false });
  await window.getByTestId('give-offer').click();
  await owner.getByRole('dialog', { name: 'Give another offer?' }).getByRole('button', { name: 'Give another offer' }).click();
  await prompt.getByRole('textbox').fill('0.2');
  await prompt.getByRole('button', { name: 'OK' }).click();
  await prompt.getByText('The smallest offer is 0.5').waitFor();
  await screenshot(owner, 'offer-too-small', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

/** Keeps what the page asks of the installed app's icon badge (the Badging API) in `window.appBadges`. */
function recordAppBadge(page) {
  return page.addInitScript(() => {
    window.appBadges = [];
    navigator.setAppBadge = async (count) => void window.appBadges.push(count);
    navigator.clearAppBadge = async () => void window.appBadges.push(0);
  });
}

test('unseen messages show where the eye is: the menu button, the tab title and the app badge', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Fix my gate', 'It does not latch.', { viewport: VIEWPORTS.phone });
  await recordAppBadge(owner);
  await owner.reload();
  const menuButton = owner.getByRole('button', { name: 'Menu' });
  await menuButton.waitFor();
  const badge = owner.getByTestId('menu-unseen-badge');
  assert.equal(await badge.count(), 0);

  await send(asker, 'Is it the hinge?');
  await send(asker, 'Or the latch itself?');
  await badge.filter({ hasText: '2' }).waitFor();
  assert.equal(await menuButton.getAttribute('aria-describedby'), 'menu-unseen');
  assert.match(await owner.title(), /^\(2\) /);
  assert.equal(await owner.evaluate(() => window.appBadges.at(-1)), 2);
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'unseen-menu-badge', { fullPage: false });

  // Wide, the menu is pinned open: its Chats dot shows, and the title keeps the count.
  await owner.setViewportSize(VIEWPORTS.desktop);
  const chats = owner.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /Chats/ });
  await chats.getByRole('img', { name: '2 unseen notifications' }).waitFor();
  assert.match(await owner.title(), /^\(2\) /);
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'unseen-menu-badge', { fullPage: false });

  await chats.click();
  await owner.getByTestId('chat-row').first().waitFor();
  assert.doesNotMatch(await owner.title(), /^\(/);
  assert.equal(await owner.evaluate(() => window.appBadges.at(-1)), 0);
  await owner.setViewportSize(VIEWPORTS.phone);
  assert.equal(await badge.count(), 0);
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

test('"Delivered" once the reader comes back later and sees the message in the chat list', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Mend my coat', 'A torn sleeve.');
  // The owner closes the app; the asker writes meanwhile.
  const context = owner.context();
  await owner.close();
  const question = await send(asker, 'Which sleeve is it?');
  await tick(question, 'Sent').waitFor();

  // Back on a phone, the owner opens Chats but not the chat.
  const back = await context.newPage();
  back.errors = [];
  back.on('pageerror', (error) => back.errors.push(error));
  await back.setViewportSize(VIEWPORTS.phone);
  await back.goto(`${BASE_URL}/chats`);
  await back.getByTestId('chat-row').filter({ hasText: 'Which sleeve is it?' }).waitFor();
  await tick(question, 'Delivered').waitFor();
  assert.deepEqual(await seriousViolations(asker), []);
  await screenshot(asker, 'delivered-after-chat-list', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  assert.deepEqual(await seriousViolations(asker), []);
  await screenshot(asker, 'delivered-after-chat-list', { fullPage: false });
  for (const page of [back, asker]) assert.deepEqual(page.errors, []);
});

test('"Delivered" once a push reaches the reader\'s service worker, before the app is opened', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Tune my piano', 'An old upright.');
  const ownerId = (await apiAs(owner, '/user/me')).body.user._id;
  await owner.evaluate(() => navigator.serviceWorker.ready);
  const { cdp, registrationId } = await serviceWorkerOf(owner);
  // The owner leaves the app (no socket): only the service worker is there to get the push.
  await owner.goto('about:blank');

  const question = await send(asker, 'Is it out of tune badly?');
  await tick(question, 'Sent').waitFor();
  const push = await chatPush(asker, 'Is it out of tune badly?', { recipientId: ownerId, title: 'Tune my piano', senderName: 'Bram Asker' });
  await deliverPush(cdp, registrationId, push, (timeout) => shownWithin(tick(question, 'Delivered'), timeout));
  assert.deepEqual(await seriousViolations(asker), []);
  await screenshot(asker, 'delivered-after-push', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  assert.deepEqual(await seriousViolations(asker), []);
  await screenshot(asker, 'delivered-after-push', { fullPage: false });
  assert.deepEqual(asker.errors, []);
});

/** The element that has the keyboard focus, by its accessible label. */
const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

test('chat basics: focus in the composer, Escape closes, images in the viewer, a muted chat, the window beside the list', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Frame my poster', 'A1, black frame.');
  await chatWindow(asker).getByLabel('Files', { exact: true }).setInputFiles([{ name: 'poster.png', mimeType: 'image/png', buffer: png(120, 90, [30, 90, 200]) }]);
  await chatWindow(asker).getByRole('button', { name: 'Remove poster.png' }).waitFor();
  await tick(await send(asker, 'This one'), 'Delivered').waitFor();

  // Opening a chat puts the caret in its composer; Escape closes the window.
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const ownerWindow = chatWindow(owner);
  await ownerWindow.getByText('This one').waitFor();
  await owner.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  // A chat image opens the app's viewer over the chat, not the raw file; Escape closes the viewer first.
  await ownerWindow.getByRole('button', { name: 'View image poster.png' }).click();
  const viewer = owner.getByRole('dialog', { name: 'Images' });
  await viewer.getByRole('img', { name: 'poster.png' }).waitFor();
  assert.equal(owner.url().includes('/uploads/'), false);
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'chat-image-viewer', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.phone);
  await viewer.getByRole('img', { name: 'poster.png' }).waitFor();
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'chat-image-viewer', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.desktop);
  await owner.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await ownerWindow.waitFor();
  await ownerWindow.getByRole('textbox', { name: 'Message' }).focus();
  await owner.keyboard.press('Escape');
  await ownerWindow.waitFor({ state: 'detached' });

  // Muted: the row says so and its count is grey, not a red alarm.
  await owner.getByRole('button', { name: 'View Chats' }).click();
  await ownerWindow.getByRole('button', { name: 'Mute notifications' }).click();
  await ownerWindow.getByRole('button', { name: 'Unmute notifications' }).waitFor();
  await ownerWindow.getByRole('button', { name: 'Close chat' }).click();
  await send(asker, 'Or a white one?');
  await owner.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /Chats/ }).click();
  const row = owner.getByTestId('chat-row').filter({ hasText: 'Frame my poster' });
  await row.getByRole('img', { name: 'Muted' }).waitFor();
  const count = row.getByLabel('1 unseen');
  await count.waitFor();
  // Grey: a background of almost no chroma (red-600 has about 0.25).
  const background = await count.evaluate((element) => getComputedStyle(element).backgroundColor);
  const chroma = Number(background.match(/^oklch\([\d.]+ ([\d.]+)/)?.[1]);
  assert.ok(chroma < 0.05, background);
  await screenshotBoth(owner, 'chat-row-muted-count', { fullPage: false });

  // Wide, the opened chat sits beside the list; on a phone it covers the screen.
  await row.click();
  await ownerWindow.getByText('Or a white one?').waitFor();
  const list = await row.boundingBox();
  const panel = await ownerWindow.boundingBox();
  assert.ok(list.x + list.width <= panel.x, `the list (${list.x}+${list.width}) runs under the chat at ${panel.x}`);
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'chat-beside-list', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.phone);
  await owner.waitForFunction(() => document.querySelector('[data-testid="chat-window"]').getBoundingClientRect().width === window.innerWidth);
  assert.deepEqual(await seriousViolations(owner), []);
  await screenshot(owner, 'chat-beside-list', { fullPage: false });
  await ownerWindow.getByRole('button', { name: 'Close chat' }).click();
  await screenshot(owner, 'chat-row-muted', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.desktop);
  await screenshot(owner, 'chat-row-muted', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

/** Chooses "Reply" on a message: from its menu button on a desktop, by a long press on a phone. */
async function chooseReply(page, bubble) {
  if (page.viewportSize().width < 600) {
    await longPress(page, bubble, page.getByRole('menuitem', { name: 'Reply' }));
  } else {
    await bubble.hover();
    await bubble.locator('xpath=..').getByRole('button', { name: 'Message menu' }).click();
  }
  await page.getByRole('menuitem', { name: 'Reply' }).click();
}

const quoteIn = (bubble) => bubble.getByRole('blockquote', { name: 'Reply to' });

test('a long press holds while the messages move under a still finger (phone)', async () => {
  const { owner, asker } = await itemChatByApi(browser, 'Fix my bike (moving)', 'A flat tyre.', { viewport: VIEWPORTS.phone });
  await send(asker, 'Is it the front tyre?');
  // The post's offer bar comes in above the messages once the owner's press has begun, as on a
  // busy phone (or server) it comes late: it pushes the messages down under the pointer.
  let loadTheBar;
  const barLoads = new Promise((resolve) => (loadTheBar = resolve));
  await owner.route((url) => url.pathname === '/api/item' && !url.search, async (route) => {
    await barLoads;
    await route.continue();
  });
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const question = chatWindow(owner).getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' });
  // Measured once the window has slid in: hovering waits for the message to stand still (a box
  // read mid-slide was lower than where the message came to rest, bar or no bar).
  await question.hover();
  const pressed = await question.boundingBox();
  await owner.mouse.down();
  loadTheBar();
  await chatWindow(owner).getByRole('button', { name: /^Give offer/ }).waitFor();
  await owner.getByRole('menuitem', { name: 'Reply' }).waitFor();
  assert.ok((await question.boundingBox()).y > pressed.y, 'the offer bar came in above the messages');
  await owner.mouse.up();
  await owner.getByRole('menuitem', { name: 'Reply' }).click();
  await chatWindow(owner).getByRole('blockquote', { name: 'Replying to' }).getByText('Is it the front tyre?').waitFor();
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a reply quotes the message it answers, in item chats and group chats (${label})`, async () => {
    const { owner, asker } = await itemChatByApi(browser, `Fix my bike ${label}`, 'A flat tyre.', { viewport });
    await send(asker, 'Is it the front tyre?');
    await send(asker, 'I can come on Friday.');
    await owner.getByRole('button', { name: 'View Chats' }).click();
    const ownerWindow = chatWindow(owner);
    const question = ownerWindow.getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' });
    await chooseReply(owner, question);
    const replying = ownerWindow.getByRole('blockquote', { name: 'Replying to' });
    await replying.getByText('Is it the front tyre?').waitFor();
    // The caret waits in the box for the answer.
    assert.equal(await owner.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
    assert.deepEqual(await seriousViolations(owner), []);
    await screenshot(owner, 'chat-replying', { fullPage: false });
    const answer = await send(owner, 'Yes, the front one');
    await quoteIn(answer).getByText('Is it the front tyre?').waitFor();
    assert.equal(await replying.count(), 0);
    // The asker sees the quote at once, and both still do after a reload.
    const received = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Yes, the front one' });
    await quoteIn(received).getByText('Is it the front tyre?').waitFor();
    await screenshot(asker, 'chat-reply', { fullPage: false });
    await asker.reload();
    await quoteIn(chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Yes, the front one' })).getByText('Is it the front tyre?').waitFor();

    // A reply can be called off before it is sent.
    await chooseReply(owner, ownerWindow.getByTestId('chat-message').filter({ hasText: 'I can come on Friday.' }));
    await ownerWindow.getByRole('button', { name: 'Cancel the reply' }).click();
    assert.equal(await quoteIn(await send(owner, 'See you then')).count(), 0);

    // In the group's chat: the owner's group, which the asker joins and reads from Chats.
    const ownerKey = await owner.evaluate(() => localStorage.getItem('agora.auth_key'));
    const askerKey = await asker.evaluate(() => localStorage.getItem('agora.auth_key'));
    const post = { Authorization: `Bearer ${ownerKey}`, 'Content-Type': 'application/json' };
    const created = await (await fetch(`${BASE_URL}/api/group?action=create`, { method: 'POST', headers: post, body: JSON.stringify({ title: `Cyclists ${label}`, is_public: true }) })).json();
    const groupId = created.group._id;
    await fetch(`${BASE_URL}/api/group?action=join`, { method: 'POST', headers: { ...post, Authorization: `Bearer ${askerKey}` }, body: JSON.stringify({ group_id: groupId }) });
    await fetch(`${BASE_URL}/session/send`, { method: 'POST', headers: post, body: JSON.stringify({ dest_session_id: groupId, payload: 'Ride on Sunday at 10?', local_id: `ride-${label}` }) });
    await asker.goto(`${BASE_URL}/chats`);
    await asker.getByTestId('chat-row').filter({ hasText: `Cyclists ${label}` }).click();
    const groupWindow = chatWindow(asker);
    await chooseReply(asker, groupWindow.getByTestId('chat-message').filter({ hasText: 'Ride on Sunday at 10?' }));
    const joined = await send(asker, 'Count me in');
    await quoteIn(joined).getByText('Ride on Sunday at 10?').waitFor();
    await screenshot(asker, 'chat-group-reply', { fullPage: false });
    for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
  });
}
