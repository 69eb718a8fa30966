// Steps the chat browser tests share: two signed-in people chatting about a post.
import { createHmac } from 'node:crypto';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, newPage, pageAs, signUpThroughPopup, uniqueEmail } from './helpers.mjs';

export const chatWindow = (page) => page.getByTestId('chat-window');
export const offerConfirm = (page) => page.getByRole('dialog', { name: 'Confirm Again to proceed with offer.' });

/** A message's ticks: 'Sent', 'Delivered' or 'Read'. */
export const tick = (bubble, name) => bubble.getByRole('img', { name, exact: true });

/** Calls the API as the page's signed-in user (GET without a body). */
export function apiAs(page, path, body) {
  return page.evaluate(
    async ([target, payload]) => {
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('agora.auth_key')}` };
      const reply = await fetch(target, payload ? { method: 'POST', headers, body: JSON.stringify(payload) } : { headers });
      return { status: reply.status, body: await reply.json() };
    },
    [path, body],
  );
}

/** The chat and time of the newest message `text` in the page's user's chat list. */
async function listedMessage(page, text) {
  const chats = await apiAs(page, '/user/chats', {});
  const { dest_session_id: sessionId, created_at: createdAt } = chats.body.sessions.find((row) => row.last_message?.payload === text).last_message;
  return { sessionId, createdAt };
}

/** The receipt the server puts in a push to `userId` (agora/core/push.py). */
function deliveryReceipt(userId, sessionId, createdAt) {
  const value = `delivered|${createdAt}|${userId}|${sessionId}`;
  const mac = createHmac('sha256', process.env.AGORA_SECRET_KEY).update(value).digest('hex').slice(0, 32);
  return `${value}.${mac}`;
}

/**
 * The push the server sends `recipientId` for the message `text` that `sender`'s page just
 * sent about the post `title` (agora/core/push.py's Notification): the test stands in for the
 * push service, which would carry the server's own (this Chromium has none to subscribe with).
 */
export async function chatPush(sender, text, { recipientId, title, senderName }) {
  const { sessionId, createdAt } = await listedMessage(sender, text);
  return {
    session_id: sessionId,
    title,
    sender_name: senderName,
    body: `${senderName}: ${text}`,
    count: 1,
    url: `/chats?session_id=${sessionId}`,
    red_dot: 1,
    receipt: deliveryReceipt(recipientId, sessionId, createdAt),
  };
}

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

/**
 * As `itemChat`, set up through the API: Olga's post in a public group of hers, and Bram's
 * page on it with its chat open, both signed in. For tests of what happens in the chat; the
 * popup, the post form and the login carrying a click through are walked in itemChat's tests
 * (chat.test.mjs), feed.test.mjs and auth.test.mjs.
 */
export async function itemChatByApi(browser, title, description, { offerAmount, viewport = VIEWPORTS.desktop } = {}) {
  const [ownerKey, askerKey] = await Promise.all([apiLogin('Olga Owner', uniqueEmail('owner')), apiLogin('Bram Asker', uniqueEmail('asker'))]);
  const { group } = await apiCall(ownerKey, '/api/group?action=create', { title: 'Amsterdam helpers', description: '', is_public: true });
  const offer = offerAmount ? { offer_amount: offerAmount, offer_currency: 'POINTS' } : {};
  const { item } = await apiCall(ownerKey, '/api/item?action=create', { group_id: group._id, title, description, ...offer });
  const postUrl = `${BASE_URL}/r/${item.route_id}`;
  // The owner's app is open on the post first, as after posting it.
  const owner = await pageAs(browser, ownerKey, viewport);
  await owner.goto(postUrl);
  await owner.getByRole('button', { name: 'View Chats' }).waitFor();
  const asker = await pageAs(browser, askerKey, viewport);
  await asker.goto(postUrl);
  await asker.getByRole('button', { name: 'Chat' }).click();
  await chatWindow(asker).waitFor();
  return { owner, asker, postUrl };
}
