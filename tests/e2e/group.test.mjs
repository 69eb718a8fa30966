// Groups: a new user creates a group of their own and runs it as its admin (settings, roles,
// moderators, WhatsApp), people join public and private groups and show up among the members,
// and a poster deletes a post from its page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiLogin, launch, newPage, screenshot, seriousViolations, signUpThroughPopup, uniqueEmail } from './helpers.mjs';
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

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`a new user creates a group of their own from the menu and runs it as its admin (${label})`, async () => {
    const { page, key } = await signedIn('Gina Founder', viewport);
    const shown = browserDialogs(page);
    if (viewport.width < 600) await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'New group' }).click();
    await page.getByRole('heading', { level: 1, name: 'New group' }).waitFor();
    // Sent without a title: said next to the field, nothing created.
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('Give the group a title').waitFor();
    await page.getByLabel('Title').fill('Harbour swimmers');
    await page.getByLabel('Description').fill('Cold water swims at the harbour, Sundays at 9.');
    await page.getByLabel('Picture from this device').setInputFiles({ name: 'swim.png', mimeType: 'image/png', buffer: png(64, 64, [20, 110, 160]) });
    const picture = page.getByRole('group', { name: 'Picture' });
    await picture.getByRole('button', { name: 'Remove' }).waitFor();
    assert.match(await picture.locator('img').getAttribute('src'), /^\/uploads\//);
    await page.getByLabel('Tags').fill('Swims, Gear');
    await page.getByLabel('Who may write').selectOption({ label: 'Admins and moderators' });
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'group-create');
    await page.getByRole('button', { name: 'Create group' }).click();

    // The creator is its admin, on the group's page.
    await page.waitForURL(/\/group\/[^/]+$/);
    const groupId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await panel(page).getByRole('heading', { name: 'Harbour swimmers' }).waitFor();
    await panel(page).getByText('Private', { exact: true }).waitFor();
    await panel(page).getByText('Admin', { exact: true }).first().waitFor();
    const { group } = await call(key, '/api/group', { group_id: groupId });
    assert.equal(group.session_user_type, 10);
    assert.equal(group.write_permission, 15);
    assert.deepEqual(group.data.tags, ['Swims', 'Gear']);
    assert.match(group.image, /^\/uploads\//);

    // Someone asks to join; the admin approves them and, after confirming, makes them a moderator.
    const samKey = await apiLogin('Sam Swimmer', uniqueEmail('sam'));
    await call(samKey, '/api/group?action=join', { group_id: groupId });
    await panel(page).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Group settings' }).waitFor();
    const members = page.getByRole('region', { name: /Members/ });
    const sam = members.getByRole('listitem').filter({ hasText: 'Sam Swimmer' });
    await sam.getByText('Awaiting approval').waitFor();
    await members.getByRole('listitem').filter({ hasText: 'Gina Founder' }).getByText('Admin', { exact: true }).waitFor();
    await sam.getByRole('button', { name: 'Approve' }).click();
    await sam.getByText('Member', { exact: true }).waitFor();
    await sam.getByRole('button', { name: 'Make moderator' }).click();
    const question = 'Are you sure you want to make Sam Swimmer a moderator ?';
    await page.getByRole('dialog', { name: question }).waitFor();
    await screenshot(page, 'group-make-moderator', { fullPage: false });
    await answer(page, question, false);
    await sam.getByText('Member', { exact: true }).waitFor();
    await sam.getByRole('button', { name: 'Make moderator' }).click();
    await answer(page, question, true);
    await sam.getByText('Moderator', { exact: true }).waitFor();
    assert.equal(await sam.getByRole('button', { name: 'Make moderator' }).count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'group-settings');

    // The settings are saved from here too, and the WhatsApp connection is one step away.
    await page.getByLabel('Title').fill('Harbour swimmers club');
    await page.getByLabel('Who may write').selectOption({ label: 'Every member' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const saved = (await call(key, '/api/group', { group_id: groupId })).group;
    assert.equal(saved.title, 'Harbour swimmers club');
    assert.equal(saved.write_permission, 20);
    await page.getByRole('link', { name: 'WhatsApp settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'WhatsApp Business' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/group/${groupId}/whatsapp`);
    assert.deepEqual(shown, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('an admin opens the group up from its settings, after confirming', async () => {
  const { page, key } = await signedIn('Ada Admin');
  const groupId = await createGroup(key, { title: 'Book club', tags: ['Books'] });
  await page.goto(`${BASE_URL}/group/${groupId}/settings`);
  const shown = browserDialogs(page);
  const readAllowed = page.getByRole('switch', { name: 'Non members can read' });
  const isPublic = page.getByRole('switch', { name: 'Public group' });
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
  await page.getByLabel('Tags').fill('Books, Films, Swaps');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved', { exact: true }).waitFor();
  assert.deepEqual(shown, []);

  // Saved on the server: the group's page shows it public, and the feed filters by the new tags.
  await page.goto(`${BASE_URL}/group/${groupId}`);
  await panel(page).getByText('Public', { exact: true }).waitFor();
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
  await panel(page).getByText('Member', { exact: true }).first().waitFor();
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

test('a poster deletes a post after confirming: it leaves the feed, and its link says it was removed', async () => {
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

  // Its link, shared before, now says what happened and leads on to the other posts.
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await page.goto(`${BASE_URL}/r/${item.route_id}`);
    await page.getByText('This post was removed').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'post-removed');
  }
  await page.getByRole('link', { name: 'See the latest posts' }).click();
  await page.waitForURL(`${BASE_URL}/${groupId}`);
  await page.getByText('Ladder to lend').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
