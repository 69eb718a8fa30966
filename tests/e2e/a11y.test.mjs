// axe-core on every main screen at phone and desktop width: serious and critical findings fail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, loginDialog, newPage, pageAs, screenshot, seriousViolations, uniqueEmail } from './helpers.mjs';

let browser;
let world;
before(async () => {
  browser = await launch();
  world = await setUpWorld();
});
after(async () => {
  await browser?.close();
});

/** A group with a post, its poster and someone who asked about it in the post's chat. */
async function setUpWorld() {
  const ownerKey = await apiLogin('Olga Owner', uniqueEmail('olga'));
  const askerKey = await apiLogin('Walker One (Amsterdam)', uniqueEmail('walker'));
  const { group } = await apiCall(ownerKey, '/api/group?action=create', {
    title: 'Oost neighbours',
    description: 'Help and things to lend in Amsterdam Oost.',
    is_public: true,
    tags: ['Help', 'Lend'],
  });
  const { item } = await apiCall(ownerKey, '/api/item?action=create', {
    group_id: group._id,
    title: 'Ladder to lend',
    description: 'A 3 metre ladder, pick up in Oost.',
    tags: ['Lend'],
    offer_amount: 5,
    offer_currency: 'POINTS',
  });
  const { chats } = await apiCall(askerKey, `/api/chats/${item._id}`, { route_id: item.route_id });
  await apiCall(askerKey, '/session/send', {
    dest_session_id: chats[0].session._id,
    payload: 'Can I borrow it on Saturday?',
    local_id: `a11y-${Date.now()}`,
  });
  return { ownerKey, askerKey, groupId: group._id, item };
}

/** Every main screen: how to reach it and what shows that it is ready. */
const SCREENS = [
  { name: 'landing', as: null, open: (page) => page.goto(`${BASE_URL}/landing`), ready: (page) => page.getByRole('heading', { level: 1 }).first() },
  { name: 'feed', as: null, open: (page) => page.goto(`${BASE_URL}/${world.groupId}`), ready: (page) => page.getByText('Ladder to lend') },
  {
    name: 'post-page',
    as: 'asker',
    open: (page) => page.goto(`${BASE_URL}/r/${world.item.route_id}`),
    ready: (page) => page.getByRole('button', { name: 'Chat' }),
  },
  {
    name: 'post-form',
    as: 'owner',
    open: (page) => page.goto(`${BASE_URL}/create/item/${world.groupId}`),
    ready: (page) => page.getByPlaceholder('What do you need to get done today ?'),
  },
  { name: 'profile', as: 'owner', open: (page) => page.goto(`${BASE_URL}/profile`), ready: (page) => page.getByTestId('wallet').first() },
  { name: 'edit-profile', as: 'owner', open: (page) => page.goto(`${BASE_URL}/edit/profile`), ready: (page) => page.getByLabel('Phone number') },
  { name: 'chats', as: 'owner', open: (page) => page.goto(`${BASE_URL}/chats`), ready: (page) => page.getByTestId('chat-row').first() },
  {
    name: 'chat-window',
    as: 'asker',
    open: async (page) => {
      await page.goto(`${BASE_URL}/r/${world.item.route_id}`);
      await page.getByRole('button', { name: 'Chat' }).click();
    },
    ready: (page) => page.getByTestId('chat-window').getByText('Can I borrow it on Saturday?'),
  },
  {
    name: 'group',
    as: 'owner',
    open: (page) => page.goto(`${BASE_URL}/group/${world.groupId}`),
    ready: (page) => page.getByRole('complementary').getByRole('heading', { name: 'Oost neighbours' }),
  },
  {
    name: 'group-settings',
    as: 'owner',
    open: (page) => page.goto(`${BASE_URL}/group/${world.groupId}/settings`),
    ready: (page) => page.getByRole('region', { name: /Members/ }).getByText('Olga Owner'),
  },
  { name: 'new-group', as: 'owner', open: (page) => page.goto(`${BASE_URL}/create/group`), ready: (page) => page.getByLabel('Who may write') },
  { name: 'select-city', as: null, open: (page) => page.goto(`${BASE_URL}/select/city`), ready: (page) => page.getByTestId('city-map') },
  {
    name: 'login-dialog',
    as: null,
    open: async (page) => {
      await page.goto(`${BASE_URL}/profile`);
      await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
    },
    ready: (page) => loginDialog(page),
  },
  {
    name: 'ledger-popup',
    as: 'owner',
    open: async (page) => {
      await page.goto(`${BASE_URL}/profile`);
      await page.getByTestId('wallet').first().getByRole('button').first().click();
    },
    ready: (page) => page.getByRole('dialog', { name: 'Transaction History' }).getByText('EOF'),
  },
];

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`no serious or critical accessibility findings on the main screens (${label})`, async () => {
    const found = [];
    // One tab per person, going from screen to screen as they would: a new browser context
    // per screen cost a renderer, the service worker's install and a cold start of the app.
    const tabs = new Map();
    for (const screen of SCREENS) {
      if (!tabs.has(screen.as)) {
        const key = screen.as === 'owner' ? world.ownerKey : screen.as === 'asker' ? world.askerKey : null;
        tabs.set(screen.as, key ? await pageAs(browser, key, viewport) : await newPage(browser, viewport));
      }
      const page = tabs.get(screen.as);
      await screen.open(page);
      await screen.ready(page).waitFor();
      await screenshot(page, `a11y-${screen.name}`, { fullPage: false });
      for (const line of await seriousViolations(page)) found.push(`${screen.name}: ${line}`);
      assert.deepEqual(page.errors, [], screen.name);
    }
    for (const page of tabs.values()) await page.context().close();
    assert.deepEqual(found, []);
  });
}

/** Whether the focused element is inside the dialog. */
const focusInside = (dialog) => dialog.evaluate((element) => element.contains(document.activeElement));

test('dialogs keep the focus inside, close on Escape and give the focus back', async () => {
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    const page = await newPage(browser, viewport);
    await page.goto(`${BASE_URL}/profile`);
    const opener = page.getByRole('main').getByRole('button', { name: 'Login' });
    await opener.click();
    const dialog = loginDialog(page);
    await dialog.waitFor();
    assert.ok(await focusInside(dialog), 'focus moves into the dialog');
    for (const key of [...Array(8).fill('Tab'), ...Array(8).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      assert.ok(await focusInside(dialog), `focus left the dialog after ${key}`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await opener.evaluate((element) => element === document.activeElement), 'focus returns to the Login button');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
