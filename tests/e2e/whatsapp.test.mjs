// WhatsApp business chats in Chromium (issue 15): a customer's message reaches the agent's
// open chat window as it comes, the agent answers, and the answer's ticks move to read as
// Meta's statuses arrive; then the screens of the feature, at phone and desktop width.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, pageAs, screenshot, seriousViolations, uniqueEmail } from './helpers.mjs';
import { png } from './png.mjs';
import { businessChatId, connectedShop, customerMedia, customerMessage, failNextSend, newCustomer, openBusinessChat, postWebhook, sentTo, statusUpdate, untilProcessed } from './whatsappHelpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const chatWindow = (page) => page.getByTestId('chat-window');
const bubble = (page, text) => chatWindow(page).getByTestId('chat-message').filter({ hasText: text });

test('an inbound WhatsApp message appears in the agent’s window as it comes; the reply’s ticks move to read with Meta’s statuses', async () => {
  const adminKey = await apiLogin('Ada Agent', uniqueEmail('ada'));
  const shop = await connectedShop(adminKey, 'Bike shop');
  const customer = newCustomer('Ana Costa');
  // The first message makes the business chat.
  await postWebhook(customerMessage(shop, customer, 'text', { body: 'Hi! Is the blue bike still for sale?' }).body);
  await untilProcessed(adminKey, businessChatId(shop, customer), 1);

  const page = await pageAs(browser, adminKey);
  await openBusinessChat(page, customer);
  await bubble(page, 'Is the blue bike still for sale?').waitFor();
  assert.match(await chatWindow(page).getByTestId('wa-window').textContent(), /Free-form replies allowed for 2[34] h/);

  // Realtime: the window is open, the customer writes again.
  await postWebhook(customerMessage(shop, customer, 'text', { body: 'I could come by tomorrow.' }).body);
  const second = bubble(page, 'I could come by tomorrow.');
  await second.waitFor();
  assert.equal(await second.getAttribute('data-own'), null);
  await second.getByText('Ana Costa').waitFor();

  const window = chatWindow(page);
  await window.getByRole('textbox', { name: 'Message' }).fill('Yes, it is here. See you tomorrow!');
  await window.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = bubble(page, 'See you tomorrow!');
  // Accepted by the Graph API (s1): one tick.
  await reply.getByRole('img', { name: 'Sent' }).waitFor();
  const sent = await sentTo(customer, (message) => message.text?.body === 'Yes, it is here. See you tomorrow!');

  await postWebhook(statusUpdate(shop, customer, sent.wamid, 'delivered'));
  await reply.getByRole('img', { name: 'Delivered' }).waitFor();
  await postWebhook(statusUpdate(shop, customer, sent.wamid, 'read'));
  const read = reply.getByRole('img', { name: 'Read' });
  await read.waitFor();
  assert.match(await read.locator('svg').getAttribute('class'), /text-blue-600/);
  // A late "sent" never takes the ticks back.
  await postWebhook(statusUpdate(shop, customer, sent.wamid, 'sent'));
  await postWebhook(customerMessage(shop, customer, 'text', { body: 'Thanks!' }).body);
  await bubble(page, 'Thanks!').waitFor();
  await reply.getByRole('img', { name: 'Read' }).waitFor();
  // The ticks are the stored flags: a reload shows them too.
  await openBusinessChat(page, customer);
  await bubble(page, 'See you tomorrow!').getByRole('img', { name: 'Read' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** A business chat with most kinds in it: the customer's media, place, contact, choice and reaction, the agent's buttons and template. */
async function busyChat(adminKey, shop, customer) {
  const photo = await customerMedia(shop, png(240, 160, [46, 125, 210]), 'image/png');
  const inbound = [
    customerMessage(shop, customer, 'text', { body: 'Saw your ad, is this still available?' }, {
      referral: { source_url: 'https://fb.example/ads/1', source_type: 'ad', headline: 'Winter sale: city bikes', body: '20% off all city bikes' },
    }),
    customerMessage(shop, customer, 'image', { id: photo, mime_type: 'image/png', caption: 'This one, in blue' }),
    customerMessage(shop, customer, 'location', { latitude: 52.3731, longitude: 4.8926, name: 'Dam Square', address: 'Dam, 1012 JS Amsterdam' }),
    customerMessage(shop, customer, 'contacts', [
      { name: { formatted_name: 'Bo Jansen', first_name: 'Bo' }, phones: [{ phone: '+31 6 1234 5678', type: 'CELL' }], emails: [{ email: 'bo@example.com', type: 'WORK' }], org: { company: 'Bo Bikes' } },
    ]),
  ];
  for (const message of inbound) await postWebhook(message.body);
  const chatId = businessChatId(shop, customer);
  await untilProcessed(adminKey, chatId, inbound.length);
  await apiCall(adminKey, '/session/send', {
    dest_session_id: chatId,
    _type: 1019,
    payload: '',
    local_id: `e2e-buttons-${Date.now()}`,
    data: { wa_kind: 'interactive', interactive: { type: 'button', body: 'Which frame size do you need?', buttons: [{ id: 's', title: 'Small' }, { id: 'm', title: 'Medium' }, { id: 'l', title: 'Large' }] } },
  });
  const buttons = await sentTo(customer, (message) => message.interactive);
  await postWebhook(
    customerMessage(shop, customer, 'interactive', { type: 'button_reply', button_reply: { id: 'm', title: 'Medium' } }, { context: { from: shop.number.phone_number_id, id: buttons.wamid } }).body,
  );
  await postWebhook(customerMessage(shop, customer, 'reaction', { message_id: buttons.wamid, emoji: '👍' }).body);
  await apiCall(adminKey, `/api/groups/${shop.groupId}/whatsapp/templates/sync`, {});
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`the business chat, the template picker, the info view and the channel screen (${label})`, async () => {
    const adminKey = await apiLogin('Ada Agent', uniqueEmail('ada'));
    const shop = await connectedShop(adminKey, 'Bike shop');
    const customer = newCustomer('Ana Costa');
    await busyChat(adminKey, shop, customer);

    const page = await pageAs(browser, adminKey, viewport);
    await openBusinessChat(page, customer);
    const window = chatWindow(page);
    await window.getByRole('button', { name: /View image/ }).waitFor();
    await window.getByRole('region', { name: 'Contact Bo Jansen' }).waitFor();
    await window.getByTestId('wa-choice').filter({ hasText: 'Medium' }).waitFor();
    await window.getByRole('listitem', { name: '👍 1' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-business-chat', { fullPage: false });
    await window.getByTestId('message-list').evaluate((list) => (list.scrollTop = 0));
    await window.getByRole('complementary', { name: 'From an ad' }).waitFor();
    await screenshot(page, 'wa-business-chat-top', { fullPage: false });

    // The agent sends a template through the picker; its preview fills as they type.
    await window.getByRole('button', { name: 'Send something else' }).click();
    await window.getByRole('menu', { name: 'Message kinds' }).waitFor();
    await screenshot(page, 'wa-kind-menu', { fullPage: false });
    await window.getByRole('menuitem', { name: 'Template' }).click();
    const picker = page.getByRole('dialog', { name: 'Send a template' });
    await picker.getByRole('button', { name: /order_update/ }).click();
    await picker.getByLabel('Body {{1}}').fill('Ana');
    await picker.getByLabel('Body {{2}}').fill('#42');
    await picker.getByLabel('Button link {{1}}').fill('42');
    const preview = picker.getByRole('region', { name: 'Preview' });
    await preview.getByText('Hello Ana, your order #42 is on its way.').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-template-picker', { fullPage: false });
    await picker.getByRole('button', { name: 'Send template' }).click();
    const template = window.getByTestId('wa-template').filter({ hasText: 'Hello Ana, your order #42 is on its way.' });
    await template.getByRole('link', { name: /Track it/ }).waitFor();
    await bubble(page, 'Hello Ana, your order #42 is on its way.').getByRole('img', { name: 'Sent' }).waitFor();

    // Its info once Meta delivered it and the customer read it: each flag with its time.
    const sentTemplate = bubble(page, 'Hello Ana, your order #42 is on its way.');
    const { wamid } = await sentTo(customer, (message) => message.template);
    await postWebhook(statusUpdate(shop, customer, wamid, 'delivered'));
    await postWebhook(statusUpdate(shop, customer, wamid, 'read'));
    await sentTemplate.getByRole('img', { name: 'Read' }).waitFor();
    await sentTemplate.click({ button: 'right' });
    const info = page.getByRole('dialog', { name: 'Message info' });
    for (const flag of ['Templated', 'Sent by server', 'Delivered', 'Read']) await info.getByText(flag, { exact: true }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-message-info', { fullPage: false });
    await info.getByRole('button', { name: 'Close' }).click();

    // The group's WhatsApp screen, reached from the group page.
    await page.goto(`${BASE_URL}/group/${shop.groupId}`);
    await page.getByRole('link', { name: 'WhatsApp' }).click();
    await page.getByRole('region', { name: '+31 20 555 0100' }).getByText('Connected').waitFor();
    assert.equal(await page.getByLabel('Access token (saved)').inputValue(), '');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-channel');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

async function userId(authKey) {
  const reply = await fetch(`${BASE_URL}/user/me`, { headers: { Authorization: `Bearer ${authKey}` } });
  return (await reply.json()).user._id;
}

/** A second agent: joins the shop's private group, is approved and made a moderator by the admin. */
async function coAgent(adminKey, shop) {
  const key = await apiLogin('Cora Coagent', uniqueEmail('cora'));
  await apiCall(key, '/api/group?action=join', { group_id: shop.groupId });
  const id = await userId(key);
  for (const action of ['approve', 'make_moderator']) {
    await apiCall(adminKey, '/session/user/update', { session_id: shop.groupId, for_user_id: id, action });
  }
  return key;
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a late customer message shows when it was sent; a failed reply's info names no other agent as its reader (${label})`, async () => {
    const adminKey = await apiLogin('Ada Agent', uniqueEmail('ada'));
    const shop = await connectedShop(adminKey, 'Bike shop');
    const coraKey = await coAgent(adminKey, shop);
    const customer = newCustomer('Mila Late');
    const chatId = businessChatId(shop, customer);
    await postWebhook(customerMessage(shop, customer, 'text', { body: 'Hello there!' }).body);
    // Sent 25 hours ago, delivered by Meta only now.
    const dayAndHourAgo = String(Math.floor(Date.now() / 1000) - 25 * 3600);
    await postWebhook(customerMessage(shop, customer, 'text', { body: 'Are you open tomorrow?' }, { timestamp: dayAndHourAgo }).body);
    await untilProcessed(adminKey, chatId, 2);

    // The agent's reply is refused by WhatsApp; then the other agent opens the chat (a read mark of theirs).
    await failNextSend();
    await apiCall(adminKey, '/session/send', { dest_session_id: chatId, _type: 1018, payload: 'We open at nine.', local_id: `e2e-failed-${Date.now()}` });
    await untilProcessed(adminKey, chatId, 3);
    await apiCall(coraKey, '/session/messages', { session_id: chatId });

    const page = await pageAs(browser, adminKey, viewport);
    await openBusinessChat(page, customer);
    const late = bubble(page, 'Are you open tomorrow?');
    assert.equal(await late.locator('time').textContent(), 'yesterday');
    // Under the day the customer sent it, between today's messages.
    const lateDay = new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(Date.now() - 25 * 3600_000);
    await chatWindow(page).getByRole('separator').filter({ hasText: lateDay }).waitFor();
    const failed = bubble(page, 'We open at nine.');
    await failed.getByRole('img', { name: 'Error' }).waitFor();
    await screenshot(page, 'wa-late-message', { fullPage: false });

    await failed.click({ button: 'right' });
    const info = page.getByRole('dialog', { name: 'Message info' });
    await info.getByText('Failed', { exact: true }).waitFor();
    assert.equal(await info.getByText('Read by').count(), 0);
    assert.equal(await info.getByText('Cora Coagent').count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-failed-info', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('outside the 24-hour window the composer offers only templates', async () => {
  const adminKey = await apiLogin('Ada Agent', uniqueEmail('ada'));
  const shop = await connectedShop(adminKey, 'Bike shop');
  const customer = newCustomer('Piet Smit');
  const dayAndHourAgo = String(Math.floor(Date.now() / 1000) - 25 * 3600);
  await postWebhook(customerMessage(shop, customer, 'text', { body: 'Are you open on Sunday?' }, { timestamp: dayAndHourAgo }).body);
  await untilProcessed(adminKey, businessChatId(shop, customer), 1);

  for (const viewport of Object.values(VIEWPORTS)) {
    const page = await pageAs(browser, adminKey, viewport);
    // Its row in the list is dated as its message is: when the customer sent it.
    await page.goto(`${BASE_URL}/chats`);
    const row = page.getByTestId('chat-row').filter({ hasText: customer.name });
    await row.getByText('Are you open on Sunday?').waitFor();
    assert.equal(await row.getByText('yesterday').count(), 1);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-late-chat-row', { fullPage: false });
    await openBusinessChat(page, customer);
    const window = chatWindow(page);
    assert.equal(await window.getByTestId('wa-window').textContent(), '🔒 Window closed: send a template');
    assert.equal(await window.getByRole('textbox', { name: 'Message' }).count(), 0);
    await window.getByRole('button', { name: 'Send a template' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'wa-window-closed', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
