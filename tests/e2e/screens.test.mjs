// Screens a new user tripped over: the phone field, someone else's edit form, the read tick
// on the own bubble, the styled question before making a chat public, and a profile picture
// from the device.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, pageAs, screenshot, seriousViolations, uniqueEmail } from './helpers.mjs';
import { png } from './png.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A public group with one post by a new user; returns the poster's key, the group and the item. */
async function postedItem(title) {
  const ownerKey = await apiLogin('Owen Owner', uniqueEmail('owen'));
  const { group } = await apiCall(ownerKey, '/api/group?action=create', { title: 'Oost neighbours', description: '', is_public: true });
  const { item } = await apiCall(ownerKey, '/api/item?action=create', { group_id: group._id, title });
  return { ownerKey, groupId: group._id, item };
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`the phone number in Edit profile stays wide and readable once the country code shows (${label})`, async () => {
    const page = await pageAs(browser, await apiLogin('Walker One (Amsterdam)', uniqueEmail('walker')), viewport);
    await page.goto(`${BASE_URL}/edit/profile`);
    const phone = page.getByLabel('Phone number');
    await phone.fill('612345678');
    const countryCode = page.getByLabel('Country code');
    await countryCode.waitFor();
    const [input, selector, form] = await Promise.all([phone.boundingBox(), countryCode.boundingBox(), page.locator('form').boundingBox()]);
    // The selector sizes to '+31'; the number takes the rest of the row, inside the card.
    assert.ok(selector.width < 120, `country code selector is ${selector.width} px wide`);
    assert.ok(input.width >= 150, `number input is ${input.width} px wide`);
    assert.ok(input.x + input.width <= form.x + form.width, 'the number input stays inside the card');
    assert.equal(await phone.inputValue(), '612345678');
    // Nothing typed is cut off: the text fits the box.
    assert.ok(await phone.evaluate((element) => element.scrollWidth <= element.clientWidth));
    // The avatar shows letters only.
    await page.getByText('WO', { exact: true }).first().waitFor();
    await screenshot(page, 'edit-profile-phone');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("someone else's post cannot be opened for editing; the poster's own can", async () => {
  const { ownerKey, groupId, item } = await postedItem('Bike to lend');
  const editPath = `${BASE_URL}/edit/item/${groupId}/${item._id}`;

  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    const stranger = await pageAs(browser, await apiLogin('Stan Stranger', uniqueEmail('stan')), viewport);
    await stranger.goto(editPath);
    await stranger.getByText('Only the person who posted this can edit it.').waitFor();
    assert.equal(await stranger.getByPlaceholder('What do you need to get done today ?').count(), 0);
    assert.equal(await stranger.getByRole('button', { name: 'Save' }).count(), 0);
    await screenshot(stranger, 'edit-refused');
    await stranger.getByRole('link', { name: 'View the post' }).click();
    await stranger.getByRole('heading', { level: 1, name: 'Bike to lend' }).waitFor();
    assert.deepEqual(stranger.errors, []);
    await stranger.context().close();
  }

  const owner = await pageAs(browser, ownerKey);
  await owner.goto(editPath);
  assert.equal(await owner.getByPlaceholder('What do you need to get done today ?').inputValue(), 'Bike to lend');
  await owner.context().close();
});

/** The contrast ratio of two CSS colours as the page paints them (any colour syntax). */
function contrast(page, foreground, background) {
  return page.evaluate(
    ([fg, bg]) => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const luminance = (color) => {
        context.fillStyle = color;
        context.fillRect(0, 0, 1, 1);
        const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
        const linear = (value) => {
          const c = value / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
      };
      const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    },
    [foreground, background],
  );
}

test('the read tick stands out on the own bubble; making a chat public asks in the styled dialog', async () => {
  const { ownerKey, item } = await postedItem('Old piano');
  const asker = await pageAs(browser, await apiLogin('Ann Asker', uniqueEmail('ann')));
  const browserDialogs = [];
  asker.on('dialog', async (dialog) => {
    browserDialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await asker.goto(`${BASE_URL}/r/${item.route_id}`);
  await asker.getByRole('button', { name: 'Chat' }).click();
  const askerWindow = asker.getByTestId('chat-window');
  await askerWindow.getByRole('textbox', { name: 'Message' }).fill('Is the piano still there?');
  await askerWindow.getByRole('button', { name: 'Send', exact: true }).click();
  const bubble = askerWindow.getByTestId('chat-message').filter({ hasText: 'Is the piano still there?' });
  await bubble.getByRole('img', { name: 'Sent' }).waitFor();

  const owner = await pageAs(browser, ownerKey);
  await owner.goto(`${BASE_URL}/r/${item.route_id}`);
  await owner.getByRole('button', { name: 'View Chats' }).click();
  await owner.getByTestId('chat-window').getByText('Is the piano still there?').waitFor();

  const readTick = bubble.getByRole('img', { name: 'Read' });
  await readTick.waitFor();
  const tickColor = await readTick.locator('svg').evaluate((svg) => getComputedStyle(svg).color);
  const bubbleColor = await bubble.evaluate((element) => getComputedStyle(element).backgroundColor);
  const ratio = await contrast(asker, tickColor, bubbleColor);
  // WCAG's 3:1 for graphics that carry meaning.
  assert.ok(ratio >= 3, `read tick contrast ${ratio.toFixed(2)}:1 (${tickColor} on ${bubbleColor})`);
  await screenshot(asker, 'chat-read-tick', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.phone);
  await screenshot(asker, 'chat-read-tick', { fullPage: false });
  await asker.setViewportSize(VIEWPORTS.desktop);

  // The poster (the chat's owner) opens it to readers only after saying yes in the styled dialog.
  owner.on('dialog', async (dialog) => {
    browserDialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const makePublic = owner.getByTestId('chat-window').getByRole('button', { name: 'Make this chat public' });
  await makePublic.click();
  const question = owner.getByRole('dialog', { name: 'Are you sure you want make this public ?' });
  await question.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'detached' });
  await makePublic.click();
  await screenshot(owner, 'chat-make-public', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.phone);
  await screenshot(owner, 'chat-make-public', { fullPage: false });
  await owner.setViewportSize(VIEWPORTS.desktop);
  await question.getByRole('button', { name: 'Confirm' }).click();
  await makePublic.waitFor({ state: 'detached' });
  assert.deepEqual(browserDialogs, []);
  for (const page of [asker, owner]) assert.deepEqual(page.errors, []);
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a profile picture comes from the device; a refused one is named beside it and the other edits stay (${label})`, async () => {
    const key = await apiLogin('Pia Picture', uniqueEmail('pia'));
    const page = await pageAs(browser, key, viewport);
    await page.goto(`${BASE_URL}/edit/profile`);
    await page.getByLabel('Name').fill('Pia P.');
    const picture = page.getByRole('group', { name: 'Your picture' });
    const fromDevice = page.getByLabel('Your picture from this device');
    const camera = page.getByLabel('Your picture from the camera');
    assert.equal(await fromDevice.getAttribute('accept'), 'image/*');
    assert.equal(await camera.getAttribute('capture'), 'user');
    // A phone offers its camera beside its photos.
    assert.equal(await picture.getByRole('button', { name: 'Take a photo' }).count(), viewport.width < 600 ? 1 : 0);

    const refusals = [
      [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') }, 'Invalid file type, allowed: jpeg, png, webp'],
      [{ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(11 * 1024 * 1024, 1) }, 'File too large, max is 10240KB'],
      // Says it is a png, is not one: the server refuses it.
      [{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a, or anything else') }, 'Mismatching mime types'],
    ];
    for (const [file, message] of refusals) {
      await fromDevice.setInputFiles(file);
      await picture.getByRole('alert').filter({ hasText: message }).waitFor();
      assert.equal(await page.getByLabel('Name').inputValue(), 'Pia P.', file.name);
    }
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'edit-profile-picture-refused');

    await fromDevice.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(80, 80, [200, 90, 40]) });
    await picture.getByRole('button', { name: 'Remove' }).waitFor();
    assert.equal(await picture.getByRole('alert').count(), 0);
    assert.match(await picture.locator('img').getAttribute('src'), /^\/uploads\//);
    await screenshot(page, 'edit-profile-picture');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${BASE_URL}/profile`);
    await page.getByRole('heading', { level: 1, name: 'Pia P.' }).waitFor();
    const me = await (await fetch(`${BASE_URL}/user/me`, { headers: { Authorization: `Bearer ${key}` } })).json();
    assert.equal(me.user.name, 'Pia P.');
    assert.match(me.user.image, /^\/uploads\//);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
