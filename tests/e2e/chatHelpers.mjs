// Steps the chat browser tests share: two signed-in people chatting about a post.
import { BASE_URL, VIEWPORTS, newPage, signUpThroughPopup, uniqueEmail } from './helpers.mjs';

export const chatWindow = (page) => page.getByTestId('chat-window');
export const offerConfirm = (page) => page.getByRole('dialog', { name: 'Confirm Again to proceed with offer.' });

export async function send(page, text) {
  const window = chatWindow(page);
  await window.getByRole('textbox', { name: 'Message' }).fill(text);
  await window.getByRole('button', { name: 'Send', exact: true }).click();
  return window.getByTestId('chat-message').filter({ hasText: text });
}

/** Olga posts in Amsterdam and Bram opens a chat about the post: both signed in. */
export async function itemChat(browser, title, description, { ownerFields = {}, viewport = VIEWPORTS.desktop } = {}) {
  const owner = await newPage(browser, viewport);
  await owner.goto(`${BASE_URL}/select/city`);
  await owner.getByPlaceholder('Search for your city').fill('Amsterdam');
  await owner.getByRole('list', { name: 'Cities' }).getByRole('button', { name: /^Amsterdam/ }).first().click();
  await owner.getByRole('button', { name: 'New post' }).click();
  await signUpThroughPopup(owner, { email: uniqueEmail('owner'), name: 'Olga Owner' });
  // The login carries the click through: the form opens without a second one.
  await owner.waitForURL(/\/create\/item\//);
  await owner.getByPlaceholder('What do you need to get done today ?').fill(title);
  await owner.getByPlaceholder('Describe a bit more').fill(description);
  for (const [placeholder, value] of Object.entries(ownerFields)) await owner.getByPlaceholder(placeholder).fill(value);
  await owner.getByRole('button', { name: 'Post', exact: true }).click();
  await owner.waitForURL(/\/r\/[^/]+$/);
  const postUrl = owner.url();

  const asker = await newPage(browser, viewport);
  await asker.goto(postUrl);
  await asker.getByRole('button', { name: 'Chat' }).click();
  await signUpThroughPopup(asker, { email: uniqueEmail('asker'), name: 'Bram Asker' });
  // The login carries the click through: the chat opens without a second one.
  await chatWindow(asker).waitFor();
  return { owner, asker, postUrl };
}
