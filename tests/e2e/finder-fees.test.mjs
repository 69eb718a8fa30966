import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, VIEWPORTS, apiCall, apiGet, apiLogin, launch, newPage, pageAs, screenshotBoth, seriousViolations, signUpThroughPopup, uniqueEmail } from './helpers.mjs';
import { chatWindow, offerConfirm } from './chatHelpers.mjs';

// Finder's fees (issue 12): the route a person arrived through reaches the chat, and the
// sharer on it is paid when the poster gives the offer.

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("a sharer's link opened in another browser carries its route into the chat, and the offer pays the sharer", async () => {
  const posterKey = await apiLogin('Pia Poster', uniqueEmail('poster'));
  const { group } = await apiCall(posterKey, '/api/group?action=create', { title: 'Dog people', description: '', is_public: true });
  const { item } = await apiCall(posterKey, '/api/item?action=create', {
    group_id: group._id,
    title: 'Walk my dog',
    offer_amount: 16,
    offer_currency: 'POINTS',
    finder_fee_percent: 25,
  });
  const annKey = await apiLogin('Ann Sharer', uniqueEmail('ann'));
  const { route_id: annRoute } = await apiGet(annKey, `/api/r/${item.route_id}?action=share`);

  // A visitor opens Ann's link, browses to the group and back to the post through the feed
  // (the poster's own link), then presses Chat and logs in.
  const asker = await newPage(browser, VIEWPORTS.desktop);
  await asker.goto(`${BASE_URL}/r/${annRoute}`);
  await asker.getByTestId('finder-fee-badge').waitFor();
  assert.equal(await asker.getByTestId('finder-fee-badge').textContent(), "🪙 4 finder's fee");
  assert.equal(await asker.getByTestId('share-count').textContent(), '1 share');
  await asker.getByRole('link', { name: 'Posted in Dog people' }).click();
  await asker.getByRole('link', { name: /Walk my dog/ }).click();
  await asker.waitForURL(new RegExp(`/r/${item.route_id}$`));
  await asker.getByRole('button', { name: 'Chat' }).click();
  await signUpThroughPopup(asker, { email: uniqueEmail('asker'), name: 'Aki Asker' });
  const askerWindow = chatWindow(asker);
  await askerWindow.getByRole('textbox', { name: 'Message' }).fill('I can walk her at noon.');
  await askerWindow.getByRole('button', { name: 'Send', exact: true }).click();
  await askerWindow.getByTestId('chat-message').getByRole('img', { name: 'Sent' }).waitFor();

  const askerKey = await asker.evaluate(() => localStorage.getItem('agora.auth_key'));
  const { chats } = await apiCall(askerKey, `/api/chats/${item._id}`, {});
  assert.equal(chats[0].session.data.route_id, annRoute, "the stored chat's route is the sharer's");

  // Signed in, the reader is told what sharing can earn: through Ann's link, half the 🪙 4 (Ann keeps her part).
  await asker.goto(`${BASE_URL}/r/${annRoute}`);
  await asker.getByTestId('share-earnings').filter({ hasText: 'Share your link: if the helper comes through it and is paid the 🪙 16 reward, you earn 🪙 2.' }).waitFor();
  await screenshotBoth(asker, 'finder-fee-post');

  // The post form says what the fee means in money, and refuses what is not 0-50.
  const poster = await pageAs(browser, posterKey);
  await poster.goto(`${BASE_URL}/create/item/${group._id}`);
  await poster.getByLabel('Offer amount').fill('16');
  const fee = poster.getByLabel("Finder's fee for people who share it");
  assert.equal(await fee.inputValue(), '10');
  await fee.fill('25');
  await poster.getByText('🪙 4 on top of the offer, shared by the people whose links brought the helper.').waitFor();
  await screenshotBoth(poster, 'finder-fee-form');
  await fee.fill('60');
  await poster.getByText('A whole number from 0 to 50').waitFor();

  // The poster's confirm dialog shows the split before paying.
  await poster.goto(`${BASE_URL}/r/${item.route_id}`);
  await poster.getByRole('button', { name: 'View Chats' }).click();
  await chatWindow(poster).getByText('I can walk her at noon.').waitFor();
  await chatWindow(poster).getByRole('button', { name: 'Give offer 🪙 16' }).click();
  const split = offerConfirm(poster).getByTestId('offer-split');
  await split.waitFor();
  assert.match(await split.textContent(), /Offer to Aki Asker🪙 16Finder's fee to Ann Sharer🪙 4Total🪙 20/);
  // Beside the real split, the rule in words and (behind a disclosure) the same worked example as the landing page.
  const rule = offerConfirm(poster).getByTestId('finder-fee-rule');
  await rule.getByText('The sharer whose link brought the helper gets half of it', { exact: false }).waitFor();
  await rule.getByText('An example').click();
  await rule.getByText('Shared by Ann, then Ben: Ben gets 🪙 5, Ann 🪙 5.').waitFor();
  assert.deepEqual(await seriousViolations(poster), []);
  await screenshotBoth(poster, 'finder-fee-confirm', { fullPage: false });
  await offerConfirm(poster).getByRole('button', { name: 'Confirm' }).click();
  await poster.getByRole('status').filter({ hasText: 'Offer Successfully given' }).waitFor();

  // Ann finds the fee in her Transaction History and under 'Earned from sharing'.
  const ann = await pageAs(browser, annKey);
  await ann.goto(`${BASE_URL}/profile`);
  await ann.getByTestId('earned-fee').filter({ hasText: 'Walk my dog' }).waitFor();
  await ann.getByTestId('wallet').filter({ hasText: 'Points' }).getByRole('button', { name: /Points/ }).click();
  const ledger = ann.getByRole('dialog', { name: 'Transaction History' });
  await ledger.getByTestId('ledger-entry').filter({ hasText: "Finder's fee for sharing 'Walk my dog'" }).getByText('+🪙 4').waitFor();
  await screenshotBoth(ann, 'finder-fee-ledger', { fullPage: false });
  await ann.keyboard.press('Escape');
  await ledger.waitFor({ state: 'detached' });
  await screenshotBoth(ann, 'finder-fee-profile');

  for (const page of [asker, poster, ann]) assert.deepEqual(page.errors, []);
});
