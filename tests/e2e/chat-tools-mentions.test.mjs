// Issue 44, items 1 and 6: mentions and slow mode in a group chat, two people at phone (390 px)
// and desktop (1280 px) widths. An admin mentions a member through the picker and slows the
// group down; the member sees the "@" mark in their chat list, goes to the mention, and waits
// out the slow mode in the composer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, pageAs, screenshot, seriousViolations, uniqueEmail } from './helpers.mjs';
import { chatWindow } from './chatHelpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function look(page, name) {
  assert.deepEqual(await seriousViolations(page), [], name);
  await screenshot(page, `chat-tools-mentions-${name}`, { fullPage: false });
}

for (const [label, viewport] of [
  ['phone', VIEWPORTS.phone],
  ['desktop', VIEWPORTS.desktop],
]) {
  test(`a mention picked as one types reaches the member's chat list, and slow mode makes them wait (${label})`, async () => {
    const adminKey = await apiLogin('Gita Admin', uniqueEmail('gita'));
    const memberKey = await apiLogin('Ravi Member', uniqueEmail('ravi'));
    const { group } = await apiCall(adminKey, '/api/group?action=create', { title: `Oost cyclists ${label}`, description: '', is_public: true });
    await apiCall(memberKey, '/api/group?action=join', { group_id: group._id });

    // The admin types "@Ra": the picker offers the member; Enter writes their name.
    const admin = await pageAs(browser, adminKey, viewport);
    await admin.goto(`${BASE_URL}/chats?session_id=${group._id}`);
    const adminWindow = chatWindow(admin);
    const box = adminWindow.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('Ride on Sunday @Ra');
    const picker = adminWindow.getByRole('listbox', { name: 'Mention someone' });
    await picker.getByRole('option', { name: 'Ravi Member' }).waitFor();
    await look(admin, 'picker');
    await box.press('Enter');
    await picker.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), 'Ride on Sunday @Ravi Member ');
    await box.pressSequentially('are you in?');
    await adminWindow.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = adminWindow.getByTestId('chat-message').filter({ hasText: 'are you in?' });
    await sent.locator('mark[data-mention="other"]', { hasText: '@Ravi Member' }).waitFor();

    // The admin slows the group down in the chat's settings.
    await adminWindow.getByRole('button', { name: 'Chat settings' }).click();
    await adminWindow.getByRole('combobox', { name: 'Slow mode' }).selectOption('30');
    await admin.getByText('Slow mode: 30 s').first().waitFor();
    await look(admin, 'slow-mode-setting');
    assert.deepEqual(admin.errors, []);
    await admin.context().close();

    // The member's chat list marks the chat with "@" beside its unseen count.
    const member = await pageAs(browser, memberKey, viewport);
    await member.goto(`${BASE_URL}/chats`);
    const row = member.getByTestId('chat-row').filter({ hasText: group.title });
    await row.getByLabel('1 unread mention').waitFor();
    await look(member, 'chat-list');

    // Opening it: the mention of them is highlighted, and "@" goes to it.
    await row.click();
    const memberWindow = chatWindow(member);
    const mention = memberWindow.getByTestId('chat-message').filter({ hasText: 'are you in?' });
    await mention.locator('mark[data-mention="me"]', { hasText: '@Ravi Member' }).waitFor();
    const jump = memberWindow.getByTestId('mention-jump');
    await jump.waitFor();
    await memberWindow.getByText('Slow mode: 30 s').waitFor();
    await look(member, 'mention-in-chat');
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await row.getByLabel('1 unread mention').waitFor({ state: 'detached' });

    // Slow mode: after their message (their joining's notice is not one), a countdown stands where Send was.
    assert.equal(await memberWindow.getByTestId('slow-mode-wait').count(), 0);
    const memberBox = memberWindow.getByRole('textbox', { name: 'Message' });
    await memberBox.fill('Count me in');
    await memberWindow.getByRole('button', { name: 'Send', exact: true }).click();
    await memberWindow.getByTestId('chat-message').filter({ hasText: 'Count me in' }).waitFor();
    const wait = memberWindow.getByTestId('slow-mode-wait');
    await wait.waitFor();
    assert.match(await wait.innerText(), /^\d+s$/);
    assert.equal(await memberWindow.getByRole('button', { name: 'Send', exact: true }).count(), 0);
    await look(member, 'slow-mode-wait');
    // The server holds the line too: an early message is refused with the wait.
    const refused = await apiCall(memberKey, '/session/send', { dest_session_id: group._id, payload: 'again', local_id: `e2e-${Date.now()}` });
    assert.equal(refused.type, -1);
    assert.match(refused.errors.slow_mode, /^Slow mode is on: you can send again in \d+ s$/);
    assert.deepEqual(member.errors, []);
    await member.context().close();
  });
}
