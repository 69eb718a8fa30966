// What a new user tripped over in chat (issue 13): ticks after a reload, live blocking,
// unread counts on a minimized chat, message info on the desktop, image chats, deleted posts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chatWindow, itemChat, send } from './chatHelpers.mjs';
import { VIEWPORTS, launch, screenshot } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const tick = (bubble, name) => bubble.getByRole('img', { name, exact: true });

/** The asker reloads the post and opens its chat again. */
async function reopen(page) {
  await page.reload();
  await page.getByRole('button', { name: 'Chat' }).click();
  await chatWindow(page).waitFor();
}

test('ticks: delivered while the other is online elsewhere, read once they open the chat, both after a reload', async () => {
  const { owner, asker } = await itemChat(browser, 'Fix my bike', 'A flat tyre.');
  // The owner's screen shows the post, not the chat: it receives the message all the same.
  const question = await send(asker, 'Is it the front tyre?');
  await tick(question, 'Delivered').waitFor();
  await reopen(asker);
  const reloaded = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' });
  await tick(reloaded, 'Delivered').waitFor();

  await owner.getByRole('button', { name: 'View Chats' }).click();
  await chatWindow(owner).getByText('Is it the front tyre?').waitFor();
  await tick(reloaded, 'Read').waitFor();
  await reopen(asker);
  await tick(chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Is it the front tyre?' }), 'Read').waitFor();
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

test('blocking is live: the blocked member\'s composer gives way at once and comes back on unblock', async () => {
  const { owner, asker } = await itemChat(browser, 'Paint a fence', 'Ten metres, white.');
  const offer = await send(asker, 'I can do it on Saturday.');
  await tick(offer, 'Delivered').waitFor();
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const ownerWindow = chatWindow(owner);
  await ownerWindow.getByText('I can do it on Saturday.').waitFor();
  await ownerWindow.getByRole('button', { name: 'Chat settings' }).click();
  const settings = ownerWindow.getByRole('region', { name: 'Chat settings' });

  await settings.getByRole('button', { name: 'Block', exact: true }).click();
  const askerWindow = chatWindow(asker);
  await askerWindow.getByText('You cannot send messages here.').waitFor();
  assert.equal(await askerWindow.getByRole('textbox', { name: 'Message' }).count(), 0);
  await screenshot(asker, 'chat-blocked', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-blocked', { fullPage: false });

  await settings.getByRole('button', { name: 'Unblock', exact: true }).click();
  await askerWindow.getByRole('textbox', { name: 'Message' }).waitFor();
  await send(asker, 'Thanks!');
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

/** Calls the API as the page's signed-in user (GET without a body). */
function apiAs(page, path, body) {
  return page.evaluate(
    async ([target, payload]) => {
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('agora.auth_key')}` };
      const reply = await fetch(target, payload ? { method: 'POST', headers, body: JSON.stringify(payload) } : { headers });
      return { status: reply.status, body: await reply.json() };
    },
    [path, body],
  );
}

test("a deleted post's chat: history readable, no offer button, a clear line, no 404", async () => {
  const { owner, asker, postUrl } = await itemChat(browser, 'Sell my lamp', 'Brass, works.', { ownerFields: { 10: '5' } });
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
  const { owner, asker } = await itemChat(browser, 'Water my plants', 'While I am away for a week.');
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

  // Desktop: the menu button shows on hover, and its one entry opens the info.
  const mine = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'How many plants?' });
  await mine.hover();
  await chatWindow(asker).getByRole('button', { name: 'Message menu' }).click();
  await screenshot(asker, 'chat-message-menu', { fullPage: false });
  await asker.getByRole('menuitem', { name: 'Message info' }).click();
  const info = asker.getByRole('dialog', { name: 'Message info' });
  await info.getByText('Read by').waitFor();
  await info.getByText('Olga Owner').waitFor();
  await info.getByRole('button', { name: /close/i }).first().click();
  await info.waitFor({ state: 'detached' });
  await mine.click({ button: 'right' });
  await info.getByText('Read by').waitFor();
  await asker.keyboard.press('Escape');
  await asker.setViewportSize(VIEWPORTS.phone);
  await mine.hover();
  await chatWindow(asker).getByRole('button', { name: 'Message menu' }).click();
  await screenshot(asker, 'chat-message-menu', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});
