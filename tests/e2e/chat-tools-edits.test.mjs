// Issue 44 items 3 and 5, issue 42 item 3: a sender edits and deletes their own message, a
// group's moderator deletes a spammer's, and a pinned message shows at the top of the chat for
// everyone in it; two people in Chromium, on a phone and on a desktop.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chatWindow, send } from './chatHelpers.mjs';
import { BASE_URL, VIEWPORTS, apiCall, apiGet, apiLogin, launch, longPress, pageAs, screenshot, uniqueEmail } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens the message's menu (a long press on a phone, the hover menu on a desktop) and chooses `action`. */
async function choose(page, bubble, action) {
  if (page.viewportSize().width < 600) {
    await longPress(page, bubble, page.getByRole('menuitem', { name: action, exact: true }));
  } else {
    await bubble.hover();
    await bubble.locator('xpath=..').getByRole('button', { name: 'Message menu' }).click();
  }
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** A public group: its owner, Mia its moderator, Ben a member and a spammer, who already wrote. */
async function groupWithSpam(label) {
  const [ownerKey, miaKey, benKey, spamKey] = await Promise.all(
    ['Olga Owner', 'Mia Moderator', 'Ben Member', 'Sam Spammer'].map((name) => apiLogin(name, uniqueEmail(name.split(' ')[0].toLowerCase()))),
  );
  const title = `Bakery street ${label} ${Date.now()}`;
  const { group } = await apiCall(ownerKey, '/api/group?action=create', { title, description: '', is_public: true });
  for (const key of [miaKey, benKey, spamKey]) await apiCall(key, '/api/group?action=join', { group_id: group._id });
  const mia = (await apiGet(miaKey, '/user/me')).user;
  await apiCall(ownerKey, '/session/user/update', { session_id: group._id, for_user_id: mia._id, action: 'make_moderator' });
  await apiCall(spamKey, '/session/send', { dest_session_id: group._id, payload: 'CHEAP WATCHES click here', local_id: `spam-${label}` });
  return { title, miaKey, benKey };
}

async function openGroupChat(page, title) {
  await page.goto(`${BASE_URL}/chats`);
  await page.getByTestId('chat-row').filter({ hasText: title }).click();
  await chatWindow(page).waitFor();
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`edit, delete and pin in a group chat (${label})`, async () => {
    const { title, miaKey, benKey } = await groupWithSpam(label);
    const mia = await pageAs(browser, miaKey, viewport);
    const ben = await pageAs(browser, benKey, viewport);
    await openGroupChat(mia, title);
    await openGroupChat(ben, title);
    const miaWindow = chatWindow(mia);
    const benWindow = chatWindow(ben);

    // Ben corrects his message: Escape calls an edit off, Enter saves it; Mia sees it edited.
    const own = await send(ben, 'See you at 7');
    await miaWindow.getByText('See you at 7').waitFor();
    await choose(ben, own, 'Edit');
    const editor = benWindow.getByRole('textbox', { name: 'Edit message' });
    await editor.press('Escape');
    assert.equal(await editor.count(), 0);
    await benWindow.getByRole('textbox', { name: 'Message' }).waitFor();
    await choose(ben, own, 'Edit');
    await editor.fill('See you at 8');
    await screenshot(ben, `chat-edit-${label}`, { fullPage: false });
    await editor.press('Enter');
    const edited = miaWindow.getByTestId('chat-message').filter({ hasText: 'See you at 8' });
    await edited.getByTestId('message-edited').waitFor();
    assert.equal(await miaWindow.getByText('See you at 7').count(), 0);
    await benWindow.getByTestId('chat-message').filter({ hasText: 'See you at 8' }).getByTestId('message-edited').waitFor();

    // Ben may not remove the spam; Mia, a moderator, does, after a confirmation.
    const spamForBen = benWindow.getByTestId('chat-message').filter({ hasText: 'CHEAP WATCHES' });
    const spam = miaWindow.getByTestId('chat-message').filter({ hasText: 'CHEAP WATCHES' });
    await choose(mia, spam, 'Delete');
    const confirm = mia.getByRole('dialog', { name: 'Delete this message?' });
    await screenshot(mia, `chat-delete-confirm-${label}`, { fullPage: false });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await miaWindow.getByText('This message was deleted').waitFor();
    await benWindow.getByText('This message was deleted').waitFor();
    assert.equal(await spamForBen.count(), 0);
    assert.equal(await benWindow.getByText('CHEAP WATCHES').count(), 0);

    // Mia pins Ben's message: it shows at the top for both; a tap on the bar goes to it.
    await choose(mia, edited, 'Pin');
    for (const window of [miaWindow, benWindow]) await window.getByTestId('pinned-bar').filter({ hasText: 'See you at 8' }).waitFor();
    await benWindow.getByTestId('pinned-bar').click();
    await screenshot(ben, `chat-pinned-${label}`, { fullPage: false });
    await screenshot(mia, `chat-moderated-${label}`, { fullPage: false });

    // Ben deletes his own message: its pin goes with it, for both.
    await choose(ben, benWindow.getByTestId('chat-message').filter({ hasText: 'See you at 8' }), 'Delete');
    await ben.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    for (const window of [miaWindow, benWindow]) {
      await window.getByTestId('pinned-bar').waitFor({ state: 'detached' });
      await window.getByTestId('message-deleted').nth(1).waitFor();
    }
    // The chat list's last message follows.
    await mia.goto(`${BASE_URL}/chats`);
    await mia.getByTestId('chat-row').filter({ hasText: title }).getByText('This message was deleted').waitFor();
    for (const page of [mia, ben]) assert.deepEqual(page.errors, []);
  });
}
