import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiLogin, launch, newPage, pageAs, screenshot, screenshotBoth, seriousViolations, signUpThroughPopup, uniqueEmail } from './helpers.mjs';
import { chatWindow, offerConfirm } from './chatHelpers.mjs';
import { STRIPE_URL, payByCard, withdraw } from './walletHelpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});


/**
 * An owner posts in Amsterdam with the given offer, an asker opens a chat about it and
 * writes, and the owner opens that chat: the setting in which offers are given.
 * `beforePost(owner)` runs on the filled-in form before Post is pressed.
 */
async function itemChat({ title, offerAmount, offerCurrency, ownerName, askerName, beforePost }) {
  const owner = await newPage(browser, VIEWPORTS.desktop);
  await owner.goto(`${BASE_URL}/select/city`);
  await owner.getByPlaceholder('Search for your city').fill('Amsterdam');
  await owner.getByRole('list', { name: 'Cities' }).getByRole('button', { name: /^Amsterdam/ }).first().click();
  await owner.getByRole('button', { name: 'New post' }).click();
  await signUpThroughPopup(owner, { email: uniqueEmail('owner'), name: ownerName });
  // The login carries the click through: the form opens without a second one.
  await owner.waitForURL(/\/create\/item\//);
  await owner.getByPlaceholder('What do you need to get done today ?').fill(title);
  await owner.getByLabel('Offer amount').fill(String(offerAmount));
  await owner.getByLabel('Offer currency').selectOption(offerCurrency);
  await beforePost?.(owner);
  await owner.getByRole('button', { name: 'Post', exact: true }).click();
  await owner.waitForURL(/\/r\/[^/]+$/);

  const asker = await newPage(browser, VIEWPORTS.desktop);
  await asker.goto(owner.url());
  await asker.getByRole('button', { name: 'Chat' }).click();
  await signUpThroughPopup(asker, { email: uniqueEmail('asker'), name: askerName });
  // The login carries the click through: the chat opens without a second one.
  const askerWindow = chatWindow(asker);
  await askerWindow.getByRole('textbox', { name: 'Message' }).fill('I can do it this afternoon.');
  await askerWindow.getByRole('button', { name: 'Send', exact: true }).click();
  await askerWindow.getByTestId('chat-message').getByRole('img', { name: 'Sent' }).waitFor();

  await owner.getByRole('button', { name: 'View Chats' }).click();
  await chatWindow(owner).getByText('I can do it this afternoon.').waitFor();
  return { owner, asker };
}

/** Opens the wallet's Transaction History on /profile and returns the dialog. */
async function openLedger(page, walletName) {
  await page.goto(`${BASE_URL}/profile`);
  await page.getByTestId('wallet').filter({ hasText: walletName }).getByRole('button', { name: new RegExp(walletName) }).click();
  const dialog = page.getByRole('dialog', { name: 'Transaction History' });
  await dialog.getByText('EOF').waitFor();
  return dialog;
}

test("the owner gives an offer in points; the chat and both ledgers show it", async () => {
  const { owner, asker } = await itemChat({
    title: 'Water my plants',
    offerAmount: 5,
    offerCurrency: 'POINTS',
    ownerName: 'Olga Owner',
    askerName: 'Bram Asker',
  });
  const ownerWindow = chatWindow(owner);
  // Only the post's owner is offered the button.
  await ownerWindow.getByRole('button', { name: 'Give offer 🪙 5' }).click();
  await offerConfirm(owner).waitFor();
  await screenshotBoth(owner, 'offer-confirm', { fullPage: false });
  await offerConfirm(owner).getByRole('button', { name: 'Confirm' }).click();
  await owner.getByRole('status').filter({ hasText: 'Offer Successfully given' }).waitFor();
  assert.equal(await chatWindow(asker).getByRole('button', { name: /Give offer/ }).count(), 0);

  // The server's 1010 notice reaches both sides of the chat as a centred notice.
  const notice = 'Olga Owner gave an offer of 🪙 5 to Bram Asker';
  await ownerWindow.locator('[data-message-type="notice"]', { hasText: notice }).waitFor();
  await chatWindow(asker).locator('[data-message-type="notice"]', { hasText: notice }).waitFor();

  // Starter points (100) and today's point, less the reward and its finder's fee held when
  // posting (5.50); the offer came from the hold, whose unused fee (0.50) stays held; the asker gains it.
  await owner.goto(`${BASE_URL}/profile`);
  const ownerPoints = owner.getByTestId('wallet').filter({ hasText: '🪙 95.50' });
  await ownerPoints.getByTestId('wallet-held').filter({ hasText: '🪙 0.50 held for your posts' }).waitFor();

  const ownerLedger = await openLedger(owner, 'Points');
  const given = ownerLedger.getByTestId('ledger-entry').filter({ hasText: "Offer for 'Water my plants' to Bram Asker" });
  await given.getByText('held -🪙 5').waitFor();
  await given.getByText('🪙 95.50').waitFor();
  await ownerLedger.getByTestId('ledger-entry').filter({ hasText: 'Welcome points' }).getByText('+🪙 100').waitFor();
  await screenshotBoth(owner, 'ledger-popup', { fullPage: false });

  const askerLedger = await openLedger(asker, 'Points');
  const received = askerLedger.getByTestId('ledger-entry').filter({ hasText: "Offer for 'Water my plants' from Olga Owner" });
  await received.getByText('+🪙 5').waitFor();
  await received.getByText('🪙 106').waitFor();

  for (const page of [owner, asker]) assert.deepEqual(page.errors, []);
});

test('a short dollar balance shows Need Recharge; a card payment credits the wallet, the offer goes through and is withdrawn', async () => {
  assert.ok(STRIPE_URL, 'AGORA_E2E_STRIPE_URL must point at the Stripe stand-in');
  let rechargeTab;
  let amount;
  // A reward in dollars is held when the post goes up: with no dollars, the form says so.
  const recharge = async (owner) => {
    const needRecharge = owner.getByTestId('hold-note').getByRole('link', { name: 'Need Recharge' });
    await needRecharge.waitFor();
    assert.equal(await needRecharge.getAttribute('target'), '_blank');
    const rechargeHref = await needRecharge.getAttribute('href');
    assert.match(rechargeHref, /^\/recharge\?amount=\d+(\.\d+)?&currency=USD$/);
    await screenshotBoth(owner, 'need-recharge', { fullPage: false });

    // The link opens the recharge page in a new tab, next to the form.
    [rechargeTab] = await Promise.all([owner.context().waitForEvent('page'), needRecharge.click()]);
    rechargeTab.errors = [];
    rechargeTab.on('pageerror', (error) => rechargeTab.errors.push(error));
    amount = new URL(rechargeHref, BASE_URL).searchParams.get('amount');
    await rechargeTab.getByRole('heading', { level: 1, name: `Reacharging ${amount} USD` }).waitFor();
    await screenshotBoth(rechargeTab, 'recharge-page');

    // Confirm leads to the provider's hosted card form, which sends the browser back.
    await rechargeTab.getByRole('button', { name: 'Confirm' }).click();
    await payByCard(rechargeTab, 'Nina Owner');
    await rechargeTab.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await rechargeTab.getByText(`$${amount}`).waitFor();
    await screenshotBoth(rechargeTab, 'after-payment-success');
    // The form heard the wallet change and says what posting now holds.
    await owner.getByTestId('hold-note').getByText(/^Held when you post: \$5\.50/).waitFor();
  };
  const { owner, asker } = await itemChat({
    title: 'Assemble a wardrobe',
    offerAmount: 5,
    offerCurrency: 'USD',
    ownerName: 'Nina Owner',
    askerName: 'Tom Asker',
    beforePost: recharge,
  });
  const ownerWindow = chatWindow(owner);
  const giveOffer = ownerWindow.getByRole('button', { name: 'Give offer $5' });

  await rechargeTab.getByRole('link', { name: 'Go to your wallets' }).click();
  await rechargeTab.getByTestId('wallet').filter({ hasText: 'US Dollar' }).getByTestId('wallet-held').filter({ hasText: '$5.50 held for your posts' }).waitFor();
  // Each money wallet recharges from its card; points say they cannot be withdrawn.
  const ownerDollars = rechargeTab.getByTestId('wallet').filter({ hasText: 'US Dollar' });
  await rechargeTab.getByTestId('wallet').filter({ hasText: 'Points' }).getByText('You cannot withdraw points').waitFor();
  await screenshotBoth(rechargeTab, 'profile-wallet-actions');
  await ownerDollars.getByRole('link', { name: 'Recharge US Dollar' }).click();
  await rechargeTab.getByRole('heading', { level: 1, name: 'Reacharging 10 USD' }).waitFor();
  await rechargeTab.getByRole('button', { name: 'Confirm' }).click();
  await rechargeTab.waitForURL(`${STRIPE_URL}/**`);

  // Back in the chat tab: the offer is paid from the held reward.
  await giveOffer.click();
  await offerConfirm(owner).getByRole('button', { name: 'Confirm' }).click();
  await owner.getByRole('status').filter({ hasText: 'Offer Successfully given' }).waitFor();
  await ownerWindow.locator('[data-message-type="notice"]', { hasText: 'Nina Owner gave an offer of $5 to Tom Asker' }).waitFor();

  const askerLedger = await openLedger(asker, 'US Dollar');
  await askerLedger.getByTestId('ledger-entry').filter({ hasText: "Offer for 'Assemble a wardrobe' from Nina Owner" }).getByText('+$5').waitFor();
  await askerLedger.getByRole('button', { name: 'Close' }).click();

  // The asker withdraws the dollars: the provider's payout onboarding first, then the transfer.
  const dollars = asker.getByTestId('wallet').filter({ hasText: 'US Dollar' });
  await asker.getByTestId('wallet').filter({ hasText: 'Points' }).getByText('You cannot withdraw points').waitFor();
  assert.equal(await asker.getByTestId('wallet').filter({ hasText: 'Points' }).getByRole('button', { name: 'Withdraw' }).count(), 0);
  await withdraw(asker, 'US Dollar', '$5');
  await asker.waitForURL(`${STRIPE_URL}/**`);
  await asker.getByRole('button', { name: 'Agree and submit' }).click();
  await asker.waitForURL(/\/profile\?can_withdraw=1/);
  await asker.getByText('You can withdraw your money now').waitFor();
  await dollars.getByText('$5').waitFor();
  // Back to the withdrawal asked for, at its confirmation (issue 42).
  const confirm = asker.getByRole('dialog', { name: 'Withdraw $5 to your payout account?' });
  await confirm.waitFor();
  await screenshotBoth(asker, 'profile-wallets');
  await confirm.getByRole('button', { name: 'Withdraw $5' }).click();
  await asker.getByRole('status').filter({ hasText: 'Withdrawal successful' }).waitFor();
  await dollars.getByText('$0').waitFor();

  for (const page of [owner, asker, rechargeTab]) assert.deepEqual(page.errors, []);
});

test("someone holding only points is not told they can withdraw money", async () => {
  const page = await newPage(browser, VIEWPORTS.phone);
  await page.goto(`${BASE_URL}/profile?can_withdraw=1`);
  // The page's own button: the side menu has one too (hidden, and inert, on a phone).
  await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click();
  await signUpThroughPopup(page, { email: uniqueEmail('points'), name: 'Petra Points' });
  const points = page.getByTestId('wallet').filter({ hasText: 'Points' });
  await points.getByText('You cannot withdraw points').waitFor();
  assert.equal(await page.getByText('You can withdraw your money now').count(), 0);
  assert.equal(await points.getByRole('button', { name: 'Withdraw' }).count(), 0);
  await screenshotBoth(page, 'profile-points-only');
  assert.deepEqual(page.errors, []);
});

/** Submits one of the Stripe stand-in's hosted pages the way its form would (it reports to the edge's webhook first). */
async function submitHostedPage(url, fields = {}) {
  const reply = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  assert.equal(reply.status, 303, `${url}: ${reply.status}`);
}

/** Someone holding `amount` in `currency`, paid in by card, whose payout account is set up. */
async function readyToWithdraw(name, amount, currency) {
  const key = await apiLogin(name, uniqueEmail('payee'));
  const { stripe_checkout_data: checkout } = await apiCall(key, '/api/recharge', { amount, currency });
  await submitHostedPage(checkout.url, { cardnumber: '4242 4242 4242 4242' });
  const { redirect } = await apiCall(key, '/api/wallet/withdraw', { wallet_for: 'user', wallet_currency: currency });
  await submitHostedPage(redirect);
  return key;
}

for (const [label, viewport] of Object.entries(VIEWPORTS)) {
  test(`withdraw asks how much and to confirm, then the balance and the banner tell the new state (${label})`, async () => {
    const key = await readyToWithdraw(`Wendy ${label}`, 30, 'EUR');
    const page = await pageAs(browser, key, viewport);
    await page.goto(`${BASE_URL}/profile?can_withdraw=1`);
    const banner = page.getByText('You can withdraw your money now');
    await banner.waitFor();
    const euros = page.getByTestId('wallet').filter({ hasText: 'Euro' });
    await euros.getByText('€30').waitFor();

    // The amount: all there is to start with, never more.
    await euros.getByRole('button', { name: 'Withdraw' }).click();
    const ask = page.getByRole('dialog', { name: 'Withdraw Euro' });
    const amount = ask.getByLabel('Amount in Euro');
    assert.equal(await amount.inputValue(), '30');
    await amount.fill('12.5');
    await screenshot(page, 'withdraw-amount', { fullPage: false });
    assert.deepEqual(await seriousViolations(page), []);
    await ask.getByRole('button', { name: 'Continue' }).click();

    const confirm = page.getByRole('dialog', { name: 'Withdraw €12.50 to your payout account?' });
    await confirm.getByText('€17.50 stays in your Euro wallet', { exact: false }).waitFor();
    await screenshot(page, 'withdraw-confirm', { fullPage: false });
    assert.deepEqual(await seriousViolations(page), []);
    await confirm.getByRole('button', { name: 'Withdraw €12.50' }).click();
    await page.getByRole('status').filter({ hasText: 'Withdrawal successful' }).waitFor();
    await euros.getByText('€17.50').waitFor();
    await banner.waitFor(); // money is left, so it still holds

    // The rest: more than there is is refused in the field; all of it empties the wallet.
    await euros.getByRole('button', { name: 'Withdraw' }).click();
    assert.equal(await amount.inputValue(), '17.50');
    await amount.fill('20');
    await ask.getByRole('button', { name: 'Continue' }).click();
    await ask.getByText('You can withdraw at most €17.50').waitFor();
    await amount.fill('17.50');
    await ask.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('dialog', { name: 'Withdraw €17.50 to your payout account?' }).getByRole('button', { name: 'Withdraw €17.50' }).click();
    await euros.getByText('€0').waitFor();

    // Nothing left: no banner saying otherwise, and no button that could only fail.
    await euros.getByText('Nothing to withdraw').waitFor();
    assert.equal(await euros.getByRole('button', { name: 'Withdraw' }).count(), 0);
    assert.equal(await banner.count(), 0);
    // The wallet in view (a whole-page picture draws the fixed header over it on a phone).
    await euros.scrollIntoViewIfNeeded();
    await screenshot(page, 'withdraw-done', { fullPage: false });
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
