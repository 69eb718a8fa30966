// Reactions on a chat's messages (issue 44, item 2), for two people at both widths: the bar in
// a message's menu, the picker behind its "+", chips that choose and show who reacted, each
// side seeing the other's at once, and the reactions kept across a reload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chatWindow, itemChatByApi, send } from './chatHelpers.mjs';
import { VIEWPORTS, launch, longPress, screenshot, seriousViolations } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const phone = (page) => page.viewportSize().width < 600;

/** Opens a message's menu: its menu button on a desktop, a long press on a phone. */
async function openMenu(page, bubble) {
  if (phone(page)) {
    await longPress(page, bubble, page.getByRole('group', { name: 'React' }));
  } else {
    await bubble.hover();
    await bubble.locator('xpath=..').getByRole('button', { name: 'Message menu' }).click();
  }
  return page.getByRole('menu');
}

const chips = (bubble) => bubble.getByRole('list', { name: 'Reactions' });
const chip = (bubble, label) => chips(bubble).getByRole('button', { name: label, exact: true });

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`two people react to a message, change and take back their reactions, and see who reacted (${label})`, async () => {
    const { owner, asker } = await itemChatByApi(browser, `Lend me a ladder ${label}`, 'For the gutters.', { viewport });
    await send(asker, 'Is a three metre one enough?');
    await owner.getByRole('button', { name: 'View Chats' }).click();
    const question = (page) => chatWindow(page).getByTestId('chat-message').filter({ hasText: 'Is a three metre one enough?' });
    await question(owner).waitFor();

    // The owner reacts from the message's menu: the quick set, the viewer's own marked.
    const menu = await openMenu(owner, question(owner));
    await menu.getByRole('menuitemcheckbox', { name: 'React with 👍' }).waitFor();
    assert.deepEqual(await seriousViolations(owner), []);
    await screenshot(owner, 'reactions-bar', { fullPage: false });
    await menu.getByRole('menuitemcheckbox', { name: 'React with 👍' }).click();
    assert.equal(await chip(question(owner), '👍 1').getAttribute('aria-pressed'), 'true');
    // The asker, whose window shows the chat, sees it come.
    await chip(question(asker), '👍 1').waitFor();
    assert.equal(await chip(question(asker), '👍 1').getAttribute('aria-pressed'), 'false');

    // A tap on a chip adds the same reaction; both see two.
    await chip(question(asker), '👍 1').click();
    await chip(question(asker), '👍 2').waitFor();
    await chip(question(owner), '👍 2').waitFor();

    // The owner changes theirs through the picker: one reaction per person.
    await (await openMenu(owner, question(owner))).getByRole('menuitem', { name: 'More reactions' }).click();
    const picker = owner.getByRole('dialog', { name: 'Choose a reaction' });
    await picker.getByRole('button', { name: 'React with 🎉' }).waitFor();
    assert.deepEqual(await seriousViolations(owner), []);
    await screenshot(owner, 'reactions-picker', { fullPage: false });
    await picker.getByRole('button', { name: 'React with 🎉' }).click();
    await picker.waitFor({ state: 'detached' });
    for (const page of [owner, asker]) {
      await chip(question(page), '🎉 1').waitFor();
      await chip(question(page), '👍 1').waitFor();
    }

    // Who reacted: a right click on a chip on a desktop, the menu's Who reacted on a phone.
    if (phone(asker)) await (await openMenu(asker, question(asker))).getByRole('menuitem', { name: 'Who reacted' }).click();
    else await chip(question(asker), '🎉 1').click({ button: 'right' });
    const who = asker.getByRole('dialog', { name: 'Reactions' });
    await who.getByRole('region', { name: '🎉 1' }).getByText('Olga Owner').waitFor();
    await who.getByRole('region', { name: '👍 1' }).getByText('You').waitFor();
    assert.deepEqual(await seriousViolations(asker), []);
    await screenshot(asker, 'reactions-who', { fullPage: false });
    await who.getByRole('button', { name: 'Close' }).click();
    await who.waitFor({ state: 'detached' });

    // Tapping one's own chip takes it back; the other sees it go.
    await chip(question(owner), '🎉 1').click();
    await chip(question(asker), '🎉 1').waitFor({ state: 'detached' });
    await chip(question(owner), '👍 1').waitFor();
    await screenshot(asker, 'reactions-chips', { fullPage: false });

    // Kept: a reload shows the reactions as they are.
    await asker.reload();
    await chip(question(asker), '👍 1').waitFor();
    assert.equal(await chip(question(asker), '👍 1').getAttribute('aria-pressed'), 'true');
    assert.equal(await chips(question(asker)).getByRole('button').count(), 1);
    for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
  });
}
