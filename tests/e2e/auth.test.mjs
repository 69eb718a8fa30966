import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  BASE_URL,
  VIEWPORTS,
  apiLogin,
  launch,
  loginDialog,
  newPage,
  readOtp,
  screenshot,
  signUpThroughPopup,
  uniqueEmail,
  untilLoaded,
} from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a new user signs up through the popup, sees the profile and logs out (${label})`, async () => {
    const page = await newPage(browser, viewport);
    const email = uniqueEmail(label);
    const name = `Ada ${label}`;

    await page.goto(`${BASE_URL}/profile`);
    await page.getByRole('heading', { name: 'You are not logged in' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
    await signUpThroughPopup(page, { email, name }, { beforeCode: () => screenshot(page, 'login-popup') });

    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByText(email).waitFor();
    await page.getByRole('heading', { name: 'My Items' }).waitFor();
    await page.getByRole('heading', { name: 'Wallets' }).waitFor();
    await untilLoaded(page);
    // The starter points are all a new user holds: money starts with a card recharge.
    await page.getByRole('link', { name: 'Recharge US Dollar' }).waitFor();
    assert.ok(await page.evaluate(() => localStorage.getItem('agora.auth_key')), 'the auth key is stored');
    await screenshot(page, 'profile');

    await page.getByRole('link', { name: 'Edit profile' }).click();
    await page.getByRole('heading', { name: 'Edit profile' }).waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), name);
    await screenshot(page, 'edit-profile');
    await page.getByRole('link', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('heading', { name: 'You are not logged in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('agora.auth_key')), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a wrong code is shown next to the code field', async () => {
  const page = await newPage(browser);
  const email = uniqueEmail('wrong-code');
  await page.goto(`${BASE_URL}/landing`);
  await page.getByRole('banner').getByRole('button', { name: 'Login' }).click();
  const dialog = loginDialog(page);
  await dialog.getByLabel('E-mail or phone number').fill(email);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Code').fill('000000');
  await dialog.getByRole('button', { name: 'Next' }).click();
  const message = dialog.locator('#login-otp-error');
  await message.waitFor();
  assert.match(await message.innerText(), /\S/);
  await page.context().close();
});

test('a profile change is saved, and a new e-mail address is confirmed with a code', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  const email = uniqueEmail('rename');
  const newEmail = uniqueEmail('renamed');
  await page.goto(`${BASE_URL}/profile`);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await signUpThroughPopup(page, { email, name: 'Linus' });

  await page.goto(`${BASE_URL}/edit/profile`);
  await page.getByLabel('Name').fill('Linus Renamed');
  await page.getByLabel('E-mail').fill(newEmail);
  await page.getByRole('button', { name: 'Save' }).click();
  const code = page.getByLabel(/^Code sent to/);
  await code.waitFor();
  await code.fill(await readOtp(newEmail));
  await page.getByRole('button', { name: 'Verify and save' }).click();

  await page.waitForURL(`${BASE_URL}/profile`);
  await page.getByRole('heading', { level: 1, name: 'Linus Renamed' }).waitFor();
  await page.getByText(newEmail).waitFor();
  await page.getByRole('complementary', { name: 'Side menu' }).getByText('Linus Renamed').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a link with another account's key asks before switching accounts (${label})`, async () => {
    const page = await newPage(browser, viewport);
    const mine = await apiLogin('Mina');
    const theirs = await apiLogin('Theo');
    await page.goto(`${BASE_URL}/landing`);
    await page.evaluate((key) => localStorage.setItem('agora.auth_key', key), mine);

    await page.goto(`${BASE_URL}/profile?auth_key=${encodeURIComponent(theirs)}`);
    const dialog = page.getByRole('dialog', { name: 'Switch accounts?' });
    await dialog.waitFor();
    assert.equal(new URL(page.url()).search, '');
    await screenshot(page, 'switch-account', { fullPage: false });
    await dialog.getByRole('button', { name: 'Stay as Mina' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('main').getByText('Mina', { exact: true }).first().waitFor();

    await page.goto(`${BASE_URL}/profile?auth_key=${encodeURIComponent(theirs)}`);
    await page.getByRole('dialog', { name: 'Switch accounts?' }).getByRole('button', { name: 'Switch account' }).click();
    await page.getByRole('main').getByText('Theo', { exact: true }).first().waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
