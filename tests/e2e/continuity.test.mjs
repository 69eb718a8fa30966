// Issue 42, items 1, 2, 5 and 6: what a person did or asked for is there when they look again.
// A mute shows at once on every screen of the chat and in their other tabs; a private group's
// link lets the invited ask to join; a reload keeps the open chat and its unsent text, and Back
// the feed's search; an action asked before logging in (Post something, Share) is done after.
// Each walk runs at phone (390 px, touch) and desktop (1280 px) widths, checked with axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  BASE_URL,
  VIEWPORTS,
  apiCall,
  apiLogin,
  launch,
  newPage,
  screenshot,
  seriousViolations,
  signUpThroughPopup,
  uniqueEmail,
} from './helpers.mjs';
import { chatWindow, itemChatByApi, send } from './chatHelpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The screen as it is: no serious axe finding, and a screenshot to look at. */
async function look(page, name, options = { fullPage: false }) {
  assert.deepEqual(await seriousViolations(page), [], name);
  await screenshot(page, name, options);
}

const chatRow = (page, title) => page.getByTestId('chat-row').filter({ hasText: title });

/** Chats through the side menu, as a person goes there (no reload). */
async function openChatsFromMenu(page) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  if (!(await menu.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
  await menu.getByRole('link', { name: /Chats/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Your Chats' }).waitFor();
}

/** A second tab of the same person (the same browser profile, so the same login). */
async function secondTab(page, url) {
  const tab = await page.context().newPage();
  tab.errors = [];
  tab.on('pageerror', (error) => tab.errors.push(error));
  await tab.goto(url);
  return tab;
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a mute shows at once in the chat list, the reopened window and another tab (${label})`, async () => {
    const title = `Hang a mirror (${label})`;
    const { owner, asker } = await itemChatByApi(browser, title, 'Heavy, needs two screws.', { viewport });
    await send(asker, 'I have a drill.');
    await owner.goto(`${BASE_URL}/chats`);
    const other = await secondTab(owner, `${BASE_URL}/chats`);
    await chatRow(other, title).waitFor();

    await chatRow(owner, title).click();
    const window = chatWindow(owner);
    await window.getByText('I have a drill.').waitFor();
    await window.getByRole('button', { name: 'Mute notifications' }).click();
    await window.getByRole('button', { name: 'Unmute notifications' }).waitFor();
    await look(owner, 'mute-window');
    await window.getByRole('button', { name: 'Close chat' }).click();
    // The list under the window, never read again, shows the mute; so does the other tab.
    await chatRow(owner, title).getByRole('img', { name: 'Muted' }).waitFor();
    await chatRow(other, title).getByRole('img', { name: 'Muted' }).waitFor();
    await look(owner, 'mute-chat-list');
    await chatRow(owner, title).click();
    await window.getByRole('button', { name: 'Unmute notifications' }).waitFor();

    // Unmuted in the other tab: the open window here follows, and so does its list.
    await chatRow(other, title).click();
    await chatWindow(other).getByRole('button', { name: 'Unmute notifications' }).click();
    await chatWindow(other).getByRole('button', { name: 'Mute notifications' }).waitFor();
    await window.getByRole('button', { name: 'Mute notifications' }).waitFor();
    await window.getByRole('button', { name: 'Close chat' }).click();
    // The list hears the same event as the window, and renders it on its own.
    await chatRow(owner, title).getByRole('img', { name: 'Muted' }).waitFor({ state: 'detached' });
    for (const page of [owner, other, asker]) assert.deepEqual(page.errors, []);
    await owner.context().close();
    await asker.context().close();
  });

  test(`a private group's link lets an invited person ask to join, and shows nothing of its content (${label})`, async () => {
    const adminKey = await apiLogin('Ada Admin', uniqueEmail('ada'));
    const { group } = await apiCall(adminKey, '/api/group?action=create', { title: `Night owls ${label}`, description: 'Our secret plans', is_public: false, is_read_allowed: false });
    await apiCall(adminKey, '/api/item?action=create', { group_id: group._id, title: 'Members only meeting' });

    const invited = await newPage(browser, viewport);
    await invited.goto(`${BASE_URL}/group/${group._id}`);
    await invited.getByText('Cannot view group, not authorized or invalid').waitFor();
    await invited.getByText('Invited to a private group? Log in to ask to join.').waitFor();
    await look(invited, 'group-link-visitor');
    await invited.getByRole('main').getByRole('button', { name: 'Login' }).click();
    await signUpThroughPopup(invited, { email: uniqueEmail('ivy'), name: 'Ivy Invited' });

    await invited.getByRole('heading', { level: 1, name: group.title }).waitFor();
    await invited.getByText('Private', { exact: true }).waitFor();
    await look(invited, 'group-invitation');
    await invited.getByRole('button', { name: 'Ask to join' }).click();
    await invited.getByRole('status').filter({ hasText: 'Awaiting approval' }).waitFor();
    assert.equal(await invited.getByRole('button', { name: 'Ask to join' }).count(), 0);
    for (const hidden of ['Our secret plans', 'Members only meeting', 'Ada Admin']) {
      assert.equal(await invited.getByText(hidden).count(), 0, hidden);
    }
    await look(invited, 'group-invitation-asked');
    const members = await apiCall(adminKey, '/session/users', { session_id: group._id });
    assert.deepEqual(members.session_users.map((entry) => [entry.user.name, entry.session_user_type]).sort(), [['Ada Admin', 10], ['Ivy Invited', 30]]);

    // An id that names no group keeps the spec's sentence, and offers nothing to ask.
    await invited.goto(`${BASE_URL}/group/${'0'.repeat(24)}`);
    await invited.getByText('Cannot view group, not authorized or invalid').waitFor();
    assert.equal(await invited.getByRole('button', { name: 'Ask to join' }).count(), 0);
    assert.deepEqual(invited.errors, []);
    await invited.context().close();
  });

  test(`a reload keeps the open chat and its unsent text; Back keeps the feed's search (${label})`, async () => {
    const title = `Water my plants (${label})`;
    const { owner, asker } = await itemChatByApi(browser, title, 'Twice a week in August.', { viewport });
    await owner.context().close();
    const box = chatWindow(asker).getByRole('textbox', { name: 'Message' });
    await box.fill('Which days exactly?');
    await asker.reload();
    await chatWindow(asker).getByRole('heading', { name: title }).waitFor();
    assert.equal(await box.inputValue(), 'Which days exactly?');
    await look(asker, 'chat-after-reload');
    await asker.getByRole('button', { name: 'Send', exact: true }).click();
    await chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Which days exactly?' }).waitFor();
    await asker.reload();
    await chatWindow(asker).getByRole('heading', { name: title }).waitFor();
    await chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Which days exactly?' }).waitFor();
    assert.equal(await box.inputValue(), '');
    await chatWindow(asker).getByRole('button', { name: 'Close chat' }).click();

    // The search stays in the address: Back from a post found by it shows the search again.
    await asker.getByRole('link', { name: 'Posted in Amsterdam helpers' }).click();
    await asker.getByLabel('Search posts').fill('plants');
    await asker.getByText('Posts matching “plants”').waitFor();
    await asker.waitForURL(/\?q=plants$/);
    await asker.getByRole('link').filter({ hasText: title }).click();
    await asker.getByRole('heading', { level: 1, name: title }).waitFor();
    await asker.goBack();
    await asker.getByText('Posts matching “plants”').waitFor();
    assert.equal(await asker.getByLabel('Search posts').inputValue(), 'plants');
    await asker.getByRole('link').filter({ hasText: title }).waitFor();
    await look(asker, 'feed-search-after-back');
    assert.deepEqual(asker.errors, []);
    await asker.context().close();
  });

  test(`Post something and Share, pressed before logging in, are done once logged in (${label})`, async () => {
    // Post something: on the phone someone with no city yet (they choose one on the way), on
    // the desktop someone who looked at Amsterdam's feed first.
    const poster = await newPage(browser, viewport);
    const chooseAmsterdam = async () => {
      await poster.getByPlaceholder('Search for your city').fill('Amsterdam');
      await poster.getByRole('list', { name: 'Cities' }).getByRole('button', { name: /^Amsterdam/ }).first().click();
    };
    if (viewport === VIEWPORTS.desktop) {
      await poster.goto(`${BASE_URL}/select/city`);
      await chooseAmsterdam();
      await poster.getByRole('button', { name: 'New post' }).waitFor();
    }
    await poster.goto(`${BASE_URL}/landing`);
    await poster.getByRole('button', { name: 'Post something' }).click();
    await signUpThroughPopup(poster, { email: uniqueEmail('pia'), name: 'Pia Poster' });
    if (viewport === VIEWPORTS.phone) {
      await poster.waitForURL(/\/select\/city\?next=post$/);
      await chooseAmsterdam();
    }
    await poster.waitForURL(/\/create\/item\/amsterdam-/);
    await poster.getByPlaceholder('What do you need to get done today ?').waitFor();
    await look(poster, 'post-something-form');
    assert.deepEqual(poster.errors, []);
    await poster.context().close();

    // Share: the link is made once they logged in. The browser lets a page write the clipboard
    // only just after a tap (this one allows it to none yet): the link shows, to copy with one more.
    const ownerKey = await apiLogin('Olga Owner', uniqueEmail('olga'));
    const { group } = await apiCall(ownerKey, '/api/group?action=create', { title: 'Oost neighbours', description: '', is_public: true });
    const { item } = await apiCall(ownerKey, '/api/item?action=create', { group_id: group._id, title: `Lend a ladder (${label})` });
    const sharer = await newPage(browser, viewport);
    await sharer.goto(`${BASE_URL}/r/${item.route_id}`);
    await sharer.getByRole('button', { name: 'Share' }).click();
    await signUpThroughPopup(sharer, { email: uniqueEmail('sam'), name: 'Sam Sharer' });
    const link = sharer.getByRole('textbox', { name: 'Your share link' });
    await link.waitFor();
    const shared = new URL(await link.inputValue());
    assert.match(shared.pathname, /^\/r\/[^/]+$/);
    assert.notEqual(shared.pathname, `/r/${item.route_id}`);
    await look(sharer, 'share-link-shown');
    await sharer.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await sharer.getByRole('button', { name: 'Copy link' }).click();
    await sharer.getByRole('button', { name: 'Link Copied' }).waitFor();
    assert.equal(await sharer.evaluate(() => navigator.clipboard.readText()), shared.href);
    assert.equal(await link.count(), 0);
    assert.deepEqual(sharer.errors, []);
    await sharer.context().close();
  });
}
