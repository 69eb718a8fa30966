// WhatsApp for the browser tests: the Graph API stand-in's control API (the harness starts
// it) and webhooks built and signed as Meta sends them.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { BASE_URL, apiCall } from './helpers.mjs';

export const STANDIN_URL = process.env.AGORA_E2E_WHATSAPP_URL;
const APP_SECRET = 'e2e-app-secret-0123456789';

async function standin(path, body) {
  assert.ok(STANDIN_URL, 'AGORA_E2E_WHATSAPP_URL must point at the Graph API stand-in');
  const reply = await fetch(`${STANDIN_URL}/_standin/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  assert.equal(reply.status, 200, path);
  return reply.json();
}

/** The stand-in refuses the next message the edge sends, with Meta's error `code` (131026: undeliverable). */
export function failNextSend(code = 131026) {
  return standin('fail', { status: 400, code, only: 'messages' });
}

/** A business number registered with the stand-in, and what its admin types to connect it. */
export async function businessNumber() {
  const number = await standin('numbers', { display_phone_number: '+31 20 555 0100' });
  const connection = {
    phone_number_id: number.phone_number_id,
    business_account_id: number.business_account_id,
    access_token: number.access_token,
    app_secret: APP_SECRET,
    verify_token: 'e2e-verify-token',
  };
  return { number, connection };
}

/** A group whose admin connected a business number registered with the stand-in. */
export async function connectedShop(adminKey, groupTitle) {
  const { group } = await apiCall(adminKey, '/api/group?action=create', { title: groupTitle, description: '', is_public: false });
  const { number, connection } = await businessNumber();
  const { channel } = await apiCall(adminKey, `/api/groups/${group._id}/whatsapp`, connection);
  return { groupId: group._id, channel, number };
}

/** A new customer of a shop: a WhatsApp id of their own, so that every test has its own chat. */
export function newCustomer(name) {
  return { name, waId: `4915${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}` };
}

/** The agent's Chats page with the customer's business chat opened from its row. */
export async function openBusinessChat(page, customer) {
  await page.goto(`${BASE_URL}/chats`);
  const row = page.getByTestId('chat-row').filter({ hasText: customer.name });
  await row.getByRole('img', { name: 'WhatsApp' }).waitFor();
  await row.click();
  await page.getByTestId('chat-window').getByTestId('wa-window').waitFor();
}

/** Posts a webhook body to the edge exactly as Meta does: the raw bytes, signed with the app secret. */
export async function postWebhook(body) {
  const raw = JSON.stringify(body);
  const signature = createHmac('sha256', APP_SECRET).update(raw).digest('hex');
  const reply = await fetch(`${BASE_URL}/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': `sha256=${signature}` },
    body: raw,
  });
  assert.equal(reply.status, 200, await reply.text());
}

export const newWamid = () => `wamid.${randomBytes(24).toString('base64')}`;
const seconds = () => String(Math.floor(Date.now() / 1000));

/** One `messages` change of Meta's webhook for the shop's number. */
function change(shop, value) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: shop.number.business_account_id,
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '31205550100', phone_number_id: shop.number.phone_number_id }, ...value },
          },
        ],
      },
    ],
  };
}

/** A customer's message of Meta's `type` with its content under that key (and extra fields such as context). */
export function customerMessage(shop, customer, type, content, extra = {}) {
  const message = { from: customer.waId, id: newWamid(), timestamp: seconds(), type, ...(content === undefined ? {} : { [type]: content }), ...extra };
  return { wamid: message.id, body: change(shop, { contacts: [{ profile: { name: customer.name }, wa_id: customer.waId }], messages: [message] }) };
}

/** A status Meta reports for one of our messages: sent, delivered, read or failed. */
export function statusUpdate(shop, customer, wamid, status) {
  return change(shop, { statuses: [{ id: wamid, status, timestamp: seconds(), recipient_id: customer.waId }] });
}

/** A file the customer sends: kept by the stand-in, fetched by the edge with the channel's token. */
export async function customerMedia(shop, bytes, mimeType) {
  const { id } = await standin('media', { data: bytes.toString('base64'), mime_type: mimeType, access_token: shop.number.access_token });
  return id;
}

/** The message the edge sent the customer through the Graph API that `matches`, once sent (it sends after acknowledging the agent). */
export async function sentTo(customer, matches) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { sent } = await standin('sent');
    const found = sent.find((message) => message.to === customer.waId && matches(message));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing matching was sent to ${customer.waId}`);
}

export const businessChatId = (shop, customer) => `wa_${shop.channel._id}_${customer.waId}`;

/**
 * Waits until the edge has processed the webhooks (it does so after its 200): the business
 * chat holds at least `count` messages.
 */
export async function untilProcessed(authKey, chatId, count) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const reply = await fetch(`${BASE_URL}/session/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${authKey}` },
      body: JSON.stringify({ session_id: chatId }),
    });
    if (reply.ok && (await reply.json()).inbox_messages.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${chatId} did not get ${count} messages`);
}
