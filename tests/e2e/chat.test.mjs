import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chatWindow, itemChat, send } from './chatHelpers.mjs';
import { BASE_URL, VIEWPORTS, launch, newPage, screenshot } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const chatsDot = (page) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('img', { name: /unseen notifications/ });

test('two users chat about a post: ticks, tabs, the Chats dot and the list', async () => {
  const { owner, asker } = await itemChat(browser, 'Walk my dog', 'Twice a day, near Vondelpark.');
  const question = await send(asker, 'Hi! Is the dog friendly? https://example.com');
  await question.getByRole('img', { name: /^(Sent|Delivered)$/ }).waitFor();

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

test('a place is shared from the address picker: locate-me, city search, map toggle', async () => {
  const { owner, asker } = await itemChat(browser, 'Deliver a sofa', 'From my flat to my new place.');
  // The asker's browser allows the position request and stands in central Nairobi.
  await asker.context().grantPermissions(['geolocation'], { origin: BASE_URL });
  await asker.context().setGeolocation({ latitude: -1.2921, longitude: 36.8219 });

  await chatWindow(asker).getByRole('button', { name: 'Share a location' }).click();
  const picker = asker.getByRole('dialog', { name: 'Share a location' });
  const address = picker.getByLabel('Address');
  await picker.getByTestId('address-map').waitFor();
  await picker.getByRole('button', { name: 'Use my location' }).click();
  await asker.waitForFunction(() => document.querySelector('#picked-address')?.value === 'Nairobi, Kenya');

  await picker.getByRole('searchbox', { name: 'Search for a city' }).fill('Mombasa');
  await picker.getByRole('list', { name: 'Cities' }).getByRole('button', { name: /^Mombasa/ }).first().click();
  assert.equal(await address.inputValue(), 'Mombasa, Kenya');
  await address.fill('Mombasa, Kenya (Nyali Bridge)');
  await screenshot(asker, 'address-picker-map', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'address-picker-map', { fullPage: false });
  await picker.getByRole('button', { name: 'Hide map' }).click();
  await picker.getByTestId('address-map').waitFor({ state: 'detached' });
  await screenshot(asker, 'address-picker', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.desktop);
  await screenshot(asker, 'address-picker', { fullPage: false });
  await picker.getByRole('button', { name: 'Send location' }).click();
  await picker.waitFor({ state: 'detached' });

  const shared = chatWindow(asker).getByTestId('chat-message').filter({ hasText: 'Mombasa, Kenya (Nyali Bridge)' });
  await shared.getByRole('img', { name: 'Sent' }).waitFor();

  await chatsDot(owner).waitFor();
  await owner.getByRole('button', { name: 'View Chats' }).click();
  const received = chatWindow(owner).getByTestId('shared-place').filter({ hasText: 'Mombasa, Kenya (Nyali Bridge)' });
  await received.waitFor();
  const mapLink = received.getByRole('link', { name: 'Open map' });
  const href = new URL(await mapLink.getAttribute('href'));
  assert.equal(href.origin, 'https://www.openstreetmap.org');
  const [latitude, longitude] = [href.searchParams.get('mlat'), href.searchParams.get('mlon')].map(Number);
  assert.ok(Math.abs(latitude + 4.05) < 0.1 && Math.abs(longitude - 39.66) < 0.1, href.toString());
  assert.equal(await mapLink.getAttribute('target'), '_blank');
  assert.match(await mapLink.getAttribute('rel'), /noopener/);

  await screenshot(owner, 'chat-location', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.phone);
  await screenshot(owner, 'chat-location', { fullPage: false });
  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});
