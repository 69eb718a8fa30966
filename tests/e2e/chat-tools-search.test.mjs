// Issue 44, items 4 and 7: searching a chat and opening it at the result; a chat with unseen
// messages opens at the first of them under a "New messages" line. Two people in a group.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chatWindow, send } from './chatHelpers.mjs';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, pageAs, screenshot, uniqueEmail } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const NOTES = 40;
const FOUND = 'Who lent me the blue tandem bike?';

/** Olga's public group, which Bram joined before she wrote NOTES messages, one of them FOUND. */
async function busyGroup() {
  const [ownerKey, memberKey] = await Promise.all([apiLogin('Olga Owner', uniqueEmail('owner')), apiLogin('Bram Member', uniqueEmail('member'))]);
  const title = `Riverside ${Math.random().toString(36).slice(2, 7)}`;
  const { group } = await apiCall(ownerKey, '/api/group?action=create', { title, description: '', is_public: true });
  await apiCall(memberKey, '/api/group?action=join', { group_id: group._id });
  for (let n = 1; n <= NOTES; n++) {
    const payload = n === 5 ? FOUND : `Note ${n} about the street party`;
    await apiCall(ownerKey, '/session/send', { dest_session_id: group._id, payload, local_id: `note-${n}` });
  }
  return { ownerKey, memberKey, title };
}

/** Opens the group's chat from the page's chat list. */
async function openFromChats(page, title) {
  await page.goto(`${BASE_URL}/chats`);
  await page.getByTestId('chat-row').filter({ hasText: title }).click();
  const window = chatWindow(page);
  await window.getByTestId('message-list').waitFor();
  return window;
}

/** Whether the element is within the message list's visible part. */
async function inView(window, locator) {
  const [list, box] = await Promise.all([window.getByTestId('message-list').boundingBox(), locator.boundingBox()]);
  return box !== null && box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

for (const [width, viewport] of [
  ['1280', VIEWPORTS.desktop],
  ['390', VIEWPORTS.phone],
]) {
  test(`a chat opens at its first unread message, is searched and opens at a result (${width} px)`, async () => {
    const { ownerKey, memberKey, title } = await busyGroup();
    const member = await pageAs(browser, memberKey, viewport);

    // Bram has every note unseen: the chat opens at the first, under the line, not at the newest.
    let window = await openFromChats(member, title);
    const line = window.getByTestId('new-messages');
    await line.waitFor();
    // `has` is looked for inside each message: a locator of the page, not of the window.
    const firstUnread = window.locator('[data-created-at]').filter({ has: member.getByTestId('new-messages') });
    assert.match(await firstUnread.innerText(), /Note 1 about the street party/);
    assert.ok(await inView(window, line), 'the line shows');
    const newest = window.getByTestId('chat-message').filter({ hasText: `Note ${NOTES} about` });
    assert.equal(await inView(window, newest), false, 'the newest is further down');
    await screenshot(member, 'chat-first-unread', { fullPage: false });
    await window.getByRole('button', { name: 'Jump to present' }).click();
    await newest.waitFor();
    await member.waitForFunction(() => !document.querySelector('[data-testid="chat-window"] button[class*="absolute"]'));
    assert.ok(await inView(window, newest));

    // A search from the header; the result picked opens the chat there, marked.
    await window.getByRole('button', { name: 'Search in chat' }).click();
    await window.getByRole('searchbox', { name: 'Search in this chat' }).fill('TANDEM bike');
    const results = window.getByRole('list', { name: 'Search results' });
    const result = results.getByRole('button').filter({ hasText: 'blue tandem bike' });
    await result.waitFor();
    assert.equal(await results.getByRole('button').count(), 1);
    assert.equal(await result.locator('mark').first().innerText(), 'tandem');
    await screenshot(member, 'chat-search', { fullPage: false });
    await result.click();
    const found = window.locator('[data-created-at]').filter({ hasText: FOUND });
    await found.waitFor();
    assert.match(await found.getAttribute('class'), /ring/);
    assert.ok(await inView(window, found), 'the result shows');
    await window.getByRole('button', { name: 'Jump to present' }).waitFor();
    await screenshot(member, 'chat-search-opened', { fullPage: false });
    await window.getByRole('button', { name: 'Close chat' }).click();

    // Olga writes twice while Bram's chat is closed: reopened, it opens at her first new one.
    const owner = await pageAs(browser, ownerKey, viewport);
    await openFromChats(owner, title);
    await send(owner, 'Are you coming tonight?');
    await (await send(owner, 'Bring the lanterns')).getByRole('img', { name: /^(Sent|Delivered)$/ }).waitFor();
    await member.getByTestId('chat-row').filter({ hasText: title }).getByLabel('2 unseen').waitFor();
    window = await openFromChats(member, title);
    const again = window.locator('[data-created-at]').filter({ has: member.getByTestId('new-messages') });
    await again.waitFor();
    assert.match(await again.innerText(), /Are you coming tonight\?/);
    assert.equal(await window.getByTestId('new-messages').count(), 1);
    await screenshot(member, 'chat-new-messages', { fullPage: false });

    for (const page of [owner, member]) assert.deepEqual(page.errors, []);
  });
}
