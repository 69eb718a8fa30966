// The group screen: an admin edits the group, people join public and private groups and
// show up among the members, and a poster deletes a post from its page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, launch, newPage, screenshot, signUpThroughPopup, uniqueEmail } from './helpers.mjs';
import { png } from './png.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A new user logged in through the popup, with their auth key for set-up calls. */
async function signedIn(name, viewport = VIEWPORTS.desktop) {
  const page = await newPage(browser, viewport);
  await page.goto(`${BASE_URL}/profile`);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await signUpThroughPopup(page, { email: uniqueEmail(name.split(' ')[0].toLowerCase()), name });
  const key = await page.evaluate(() => localStorage.getItem('agora.auth_key'));
  assert.ok(key, 'the app keeps the auth key after logging in');
  return { page, key };
}

/** Set-up through the API, as the given user: what the test is about happens in the browser. */
async function call(key, path, body) {
  const reply = await fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const data = await reply.json();
  assert.equal(reply.status, 200, `${path}: ${JSON.stringify(data)}`);
  return data;
}

async function createGroup(key, fields) {
  return (await call(key, '/api/group?action=create', { description: '', ...fields })).group._id;
}

/** Collects the browser's own dialogs (confirm boxes), which the app must never use. */
function browserDialogs(page) {
  const shown = [];
  page.on('dialog', async (dialog) => {
    shown.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return shown;
}

/** Answers the app's styled question dialog. */
async function answer(page, question, yes) {
  const dialog = page.getByRole('dialog', { name: question });
  await dialog.getByRole('button', { name: yes ? 'Confirm' : 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

const panel = (page) => page.getByRole('complementary');
const membersList = (page) => panel(page).getByRole('region', { name: /Members/ });

async function openGroup(page, groupId) {
  await page.goto(`${BASE_URL}/group/${groupId}`);
  await page.getByRole('heading', { level: 1, name: 'posts' }).waitFor();
  await panel(page).getByRole('heading', { level: 2 }).first().waitFor();
}

test('an admin edits the title, description, tags and who may read the group', async () => {
  const { page, key } = await signedIn('Ada Admin');
  const groupId = await createGroup(key, { title: 'Book club', tags: ['Books'] });
  await openGroup(page, groupId);
  await panel(page).getByText('Private', { exact: true }).waitFor();
  await panel(page).getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit group' });
  await editor.getByLabel('Title').fill('Sunday book club');
  await editor.getByLabel('Description').fill('We swap novels every Sunday at the library.');
  await editor.getByLabel('Tags').fill('Books, Films, Swaps');
  // An uploaded picture is kept as the server stores it (`/uploads/...`) and can be saved.
  await editor.getByLabel('Upload picture').setInputFiles({ name: 'club.png', mimeType: 'image/png', buffer: png(48, 48, [20, 120, 90]) });
  await editor.getByText('Upload picture', { exact: true }).waitFor();
  assert.match(await editor.getByLabel('Image').inputValue(), /^\/uploads\//);

  // Opening the group up asks first (in the styled dialog, over the editor): declined once, then accepted.
  const shown = browserDialogs(page);
  const readAllowed = editor.getByRole('switch', { name: 'Non members can read' });
  const isPublic = editor.getByRole('switch', { name: 'Public group' });
  await readAllowed.click();
  await answer(page, 'Are you sure you want to allow non members to read ?', true);
  assert.equal(await readAllowed.isChecked(), true);
  await isPublic.click();
  await answer(page, 'Are you sure you want make this group public ?', false);
  assert.equal(await isPublic.isChecked(), false);
  await isPublic.click();
  await page.getByRole('dialog', { name: 'Are you sure you want make this group public ?' }).waitFor();
  await screenshot(page, 'group-confirm', { fullPage: false });
  await page.setViewportSize(VIEWPORTS.phone);
  await screenshot(page, 'group-confirm', { fullPage: false });
  await page.setViewportSize(VIEWPORTS.desktop);
  await answer(page, 'Are you sure you want make this group public ?', true);
  assert.equal(await isPublic.isChecked(), true);
  assert.equal(await readAllowed.isDisabled(), true);
  assert.deepEqual(shown, []);
  await screenshot(page, 'group-editor', { fullPage: false });
  await page.setViewportSize(VIEWPORTS.phone);
  await screenshot(page, 'group-editor', { fullPage: false });
  await page.setViewportSize(VIEWPORTS.desktop);
  await editor.getByRole('button', { name: 'Save' }).click();
  await editor.waitFor({ state: 'detached' });

  // Saved on the server: a fresh load shows the changes, and the feed filters by the new tags.
  await page.reload();
  await panel(page).getByRole('heading', { name: 'Sunday book club' }).waitFor();
  await panel(page).getByText('We swap novels every Sunday at the library.').waitFor();
  await panel(page).getByText('Public', { exact: true }).waitFor();
  const { group } = await call(key, '/api/group', { group_id: groupId });
  assert.match(group.image, /^\/uploads\//);
  const tagFilter = page.getByRole('group', { name: 'Tags' });
  for (const tag of ['Books', 'Films', 'Swaps']) await tagFilter.getByRole('button', { name: `#${tag}` }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('joining: a public group at once, a private one after approval; members are listed', async () => {
  const admin = await signedIn('Ada Admin');
  const publicId = await createGroup(admin.key, { title: 'Vondelpark runners', tags: ['Runs'], is_public: true });
  const privateId = await createGroup(admin.key, { title: 'Quiet readers', tags: ['Books'], is_read_allowed: true });
  await admin.page.context().close();

  const { page } = await signedIn('Milo Member', VIEWPORTS.phone);
  await openGroup(page, publicId);
  await membersList(page).getByText('Ada Admin').waitFor();
  assert.equal(await membersList(page).getByText('Milo Member').count(), 0);
  await panel(page).getByRole('button', { name: 'Join' }).click();
  await panel(page).getByText('Member', { exact: true }).waitFor();
  assert.equal(await panel(page).getByRole('button', { name: 'Join' }).count(), 0);
  await membersList(page).getByText('Milo Member').waitFor();
  await membersList(page).getByRole('heading', { name: 'Members (2)' }).waitFor();
  await screenshot(page, 'group');
  await page.setViewportSize(VIEWPORTS.desktop);
  await screenshot(page, 'group');
  await page.setViewportSize(VIEWPORTS.phone);

  await openGroup(page, privateId);
  await panel(page).getByText('Private', { exact: true }).waitFor();
  await panel(page).getByText('Non members can read').waitFor();
  await panel(page).getByRole('button', { name: 'Join' }).click();
  await panel(page).getByText('Awaiting approval', { exact: true }).first().waitFor();
  assert.equal(await panel(page).getByRole('button', { name: 'Join' }).count(), 0);
  const waiting = membersList(page).getByRole('listitem').filter({ hasText: 'Milo Member' });
  await waiting.getByText('Awaiting approval').waitFor();
  // Still not a member: the group accepts no posts from them yet.
  assert.equal(await page.getByRole('button', { name: 'New post' }).count(), 0);
  await screenshot(page, 'group-awaiting-approval', { fullPage: false });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a poster deletes a post after confirming, and it leaves the feed', async () => {
  const { page, key } = await signedIn('Paula Poster');
  const groupId = await createGroup(key, { title: 'Oost neighbours', tags: ['Help'], is_public: true });
  await call(key, '/api/item?action=create', { group_id: groupId, title: 'Ladder to lend' });
  const { item } = await call(key, '/api/item?action=create', { group_id: groupId, title: 'Sofa to give away' });

  await page.goto(`${BASE_URL}/r/${item.route_id}`);
  await page.getByRole('heading', { level: 1, name: 'Sofa to give away' }).waitFor();
  const shown = browserDialogs(page);
  await page.getByRole('button', { name: 'Delete' }).click();
  await answer(page, 'Are you sure you want to delete this item ?', false);
  // Declined: nothing happens.
  await page.getByRole('heading', { level: 1, name: 'Sofa to give away' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/r/${item.route_id}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await answer(page, 'Are you sure you want to delete this item ?', true);
  await page.waitForURL(`${BASE_URL}/${groupId}`);
  await page.getByText('Ladder to lend').waitFor();
  assert.equal(await page.getByText('Sofa to give away').count(), 0);
  await page.getByText('1 post', { exact: true }).waitFor();
  assert.deepEqual(shown, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
