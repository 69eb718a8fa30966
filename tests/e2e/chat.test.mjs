import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, launch, newPage, screenshot, signUpThroughPopup, uniqueEmail } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const chatWindow = (page) => page.getByTestId('chat-window');
const chatsDot = (page) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('img', { name: /unseen notifications/ });

async function send(page, text) {
  const window = chatWindow(page);
  await window.getByRole('textbox', { name: 'Message' }).fill(text);
  await window.getByRole('button', { name: 'Send', exact: true }).click();
  return window.getByTestId('chat-message').filter({ hasText: text });
}

test('two users chat about a post: ticks, tabs, the Chats dot and the list', async () => {
  const owner = await newPage(browser, VIEWPORTS.desktop);
  await owner.goto(`${BASE_URL}/select/city`);
  await owner.getByPlaceholder('Search for your city').fill('Amsterdam');
  await owner.getByRole('list', { name: 'Cities' }).getByRole('button', { name: /^Amsterdam/ }).first().click();
  await owner.getByRole('button', { name: 'New post' }).click();
  await signUpThroughPopup(owner, { email: uniqueEmail('owner'), name: 'Olga Owner' });
  await owner.getByRole('button', { name: 'New post' }).click();
  await owner.getByPlaceholder('What do you need to get done today ?').fill('Walk my dog');
  await owner.getByPlaceholder('Describe a bit more').fill('Twice a day, near Vondelpark.');
  await owner.getByRole('button', { name: 'Post', exact: true }).click();
  await owner.waitForURL(/\/r\/[^/]+$/);
  const postUrl = owner.url();

  const asker = await newPage(browser, VIEWPORTS.desktop);
  await asker.goto(postUrl);
  await asker.getByRole('button', { name: 'Chat' }).click();
  await signUpThroughPopup(asker, { email: uniqueEmail('asker'), name: 'Bram Asker' });
  await asker.getByRole('button', { name: 'Chat' }).click();
  await chatWindow(asker).waitFor();
  const question = await send(asker, 'Hi! Is the dog friendly? https://example.com');
  await question.getByRole('img', { name: 'Sent' }).waitFor();

  // The owner hears of it without reloading.
  await chatsDot(owner).waitFor();

  await owner.getByRole('button', { name: 'View Chats' }).click();
  const ownerWindow = chatWindow(owner);
  await ownerWindow.getByRole('tab', { name: /Bram Asker/ }).waitFor();
  await ownerWindow.getByText('Hi! Is the dog friendly?').waitFor();
  await send(owner, 'Very friendly, a labrador.');

  await chatWindow(asker).getByText('Very friendly, a labrador.').waitFor();
  // The owner had the chat open when the question arrived: it reads as read.
  await question.getByRole('img', { name: 'Read' }).waitFor();
  await screenshot(asker, 'chat-window', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-window', { fullPage: false });

  await ownerWindow.getByRole('button', { name: 'Chat settings' }).click();
  await ownerWindow.getByRole('region', { name: 'Chat settings' }).getByText('Bram Asker').waitFor();
  await screenshot(owner, 'chat-settings', { fullPage: false });
  await ownerWindow.getByRole('button', { name: 'Close chat' }).click();

  // The dot stays until the chat list is opened, which clears it.
  await send(asker, 'Great, when can I start?');
  await chatsDot(owner).waitFor();
  await owner.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /Chats/ }).click();
  await owner.getByRole('heading', { level: 1, name: 'Your Chats' }).waitFor();
  await owner.getByTestId('chat-row').filter({ hasText: 'Walk my dog' }).waitFor();
  await chatsDot(owner).waitFor({ state: 'detached' });
  // The list keeps up by itself: a new message raises the row's badge and the dot again.
  const row = owner.getByTestId('chat-row').filter({ hasText: 'Walk my dog' });
  await row.getByLabel('1 unseen').waitFor();
  await send(asker, 'Tomorrow morning?');
  await row.getByLabel('2 unseen').waitFor();
  await chatsDot(owner).waitFor();

  await screenshot(owner, 'chats-list');
  await owner.setViewportSize(VIEWPORTS.phone);
  await screenshot(owner, 'chats-list');

  await owner.getByTestId('chat-row').first().click();
  await chatWindow(owner).getByText('Great, when can I start?').waitFor();
  await chatWindow(owner).getByText('Tomorrow morning?').waitFor();

  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});
