import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  BASE_URL,
  VIEWPORTS,
  apiCall,
  apiGet,
  apiLogin,
  launch,
  newPage,
  pageAs,
  screenshotBoth,
  seriousViolations,
  signUpThroughPopup,
  uniqueEmail,
} from './helpers.mjs';
import { chatWindow, offerConfirm, send } from './chatHelpers.mjs';

// Rewards people can count on (issue 32): the reward held when the post goes up, paid from
// the hold with the finder's fees, reviews after the paid offer, and what is left given back
// when the post closes. Each screen is looked at (and checked by axe) at both widths.

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Screenshots at both widths and axe's serious findings at each, collected in `found`. */
async function look(page, name, found, options) {
  const original = page.viewportSize();
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    for (const line of await seriousViolations(page)) found.push(`${name} at ${viewport.width}: ${line}`);
  }
  await page.setViewportSize(original);
  await screenshotBoth(page, name, options);
}

const toast = (page, text) => page.getByRole('status').filter({ hasText: text });

test('a held reward: posted, shared, paid with fees from the hold, reviewed both ways, raised, closed and the rest given back', async () => {
  const found = [];
  const posterKey = await apiLogin('Pia Poster', uniqueEmail('pia'));
  const { group } = await apiCall(posterKey, '/api/group?action=create', { title: 'Dog people', description: '', is_public: true });
  const poster = await pageAs(browser, posterKey);

  // The form says what posting holds, and refuses more than the wallet has.
  await poster.goto(`${BASE_URL}/create/item/${group._id}`);
  await poster.getByPlaceholder('What do you need to get done today ?').fill('Walk my dog');
  await poster.getByLabel('Offer amount').fill('400');
  const note = poster.getByTestId('hold-note');
  await note.getByText(/^Holding this reward needs 🪙 440 and your wallet has 🪙 \d+ available\.$/).waitFor();
  await note.getByText(/more points to hold this reward/).waitFor();
  await look(poster, 'reward-form-refused', found);
  await poster.getByLabel('Offer amount').fill('40');
  await note.getByText(/^Held when you post: 🪙 44 \(reward 🪙 40 \+ finder’s fee 🪙 4\)\. You have 🪙 \d+ available\.$/).waitFor();
  await look(poster, 'reward-form', found);
  await poster.getByRole('radio', { name: 'describe' }).click();
  await note.getByText('Not held: a reward in words is between you and the helper.').waitFor();
  await poster.getByRole('radio', { name: 'value' }).click();
  await poster.getByRole('button', { name: 'Post', exact: true }).click();
  await poster.waitForURL(/\/r\/[^/]+$/);
  const routeId = poster.url().split('/r/')[1];
  const { item } = await apiGet(posterKey, `/api/r/${routeId}`);

  // Everyone sees that the reward is held, and until when the post is open.
  await poster.getByTestId('reward-held').filter({ hasText: 'Reward held 🪙 44' }).waitFor();
  assert.match(await poster.getByTestId('post-lifetime').textContent(), /^Open until [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await look(poster, 'reward-post-held', found);

  // Ann shares; Aki opens her link on a phone, asks to chat and writes.
  const annKey = await apiLogin('Ann Sharer', uniqueEmail('ann'));
  const { route_id: annRoute } = await apiGet(annKey, `/api/r/${routeId}?action=share`);
  const asker = await newPage(browser, VIEWPORTS.phone);
  await asker.goto(`${BASE_URL}/r/${annRoute}`);
  await asker.getByTestId('reward-held').filter({ hasText: 'Reward held 🪙 44' }).waitFor();
  await asker.getByRole('button', { name: 'Chat' }).click();
  await signUpThroughPopup(asker, { email: uniqueEmail('aki'), name: 'Aki Asker' });
  await (await send(asker, 'I can walk her at noon.')).getByRole('img', { name: 'Sent' }).waitFor();
  const askerKey = await asker.evaluate(() => localStorage.getItem('agora.auth_key'));

  // The poster pays from the hold: the confirm dialog says where the money comes from.
  await poster.getByRole('button', { name: 'View Chats' }).click();
  const posterChat = chatWindow(poster);
  await posterChat.getByText('I can walk her at noon.').waitFor();
  await posterChat.getByRole('button', { name: 'Give offer 🪙 40' }).click();
  const split = offerConfirm(poster).getByTestId('offer-split');
  await split.waitFor();
  assert.match(await split.textContent(), /Offer to Aki Asker🪙 40Finder's fee to Ann Sharer🪙 4Total🪙 44From the reward held for this post🪙 44From your available balance🪙 0/);
  // The helper's name comes with the chat's people, which may answer after the split.
  const source = offerConfirm(poster).getByTestId('offer-source');
  await source.filter({ hasText: 'Aki Asker' }).waitFor();
  assert.equal(await source.textContent(), '🪙 40 goes to Aki Asker, paid from the reward held for this post.');
  await look(poster, 'reward-offer-confirm', found, { fullPage: false });
  await offerConfirm(poster).getByRole('button', { name: 'Confirm' }).click();
  await toast(poster, 'Offer Successfully given').waitFor();

  // Each side reviews the other once.
  await posterChat.getByTestId('review-bar').getByText('Paid. How was it with Aki?').waitFor();
  await posterChat.getByRole('button', { name: 'Review Aki' }).click();
  const posterReview = poster.getByRole('dialog', { name: 'Review Aki Asker' });
  await posterReview.getByRole('radio', { name: '5 out of 5 stars' }).click();
  await posterReview.getByLabel('A few words (optional)').fill('On time, and Bella loved the walk.');
  await look(poster, 'review-dialog', found, { fullPage: false });
  await posterReview.getByRole('button', { name: 'Post review' }).click();
  await toast(poster, 'Review saved').waitFor();
  await posterChat.getByTestId('review-bar').getByRole('button', { name: 'Change review' }).waitFor();

  const askerChat = chatWindow(asker);
  await askerChat.getByRole('button', { name: 'Review Pia' }).click();
  const askerReview = asker.getByRole('dialog', { name: 'Review Pia Poster' });
  await askerReview.getByRole('radio', { name: '4 out of 5 stars' }).click();
  await askerReview.getByLabel('A few words (optional)').fill('Paid at once.');
  await askerReview.getByRole('button', { name: 'Post review' }).click();
  await toast(asker, 'Review saved').waitFor();
  await askerChat.getByTestId('their-review').filter({ hasText: 'On time, and Bella loved the walk.' }).waitFor();
  await posterChat.getByTestId('their-review').filter({ hasText: 'Paid at once.' }).waitFor();
  await look(poster, 'review-bar', found, { fullPage: false });

  // The feed card says paid; the poster's public profile shows what they paid and their reviews.
  await poster.goto(`${BASE_URL}/${group._id}`);
  await poster.getByTestId('reward-paid').filter({ hasText: 'Paid 🪙 40' }).waitFor();
  await look(poster, 'reward-feed', found);
  await asker.goto(`${BASE_URL}/r/${annRoute}`);
  await asker.getByRole('link', { name: 'Pia Poster' }).click();
  await asker.waitForURL(/\/u\/[^/]+$/);
  await asker.getByTestId('rewards-summary').filter({ hasText: 'Rewards paid🪙 40 in 1 offer' }).waitFor();
  await asker.getByTestId('reviews-summary').filter({ hasText: '4 from 1 review' }).waitFor();
  await asker.getByTestId('review').filter({ hasText: 'Paid at once.' }).waitFor();
  await look(asker, 'user-profile', found);

  // Raising the reward holds the difference anew (the first hold went to Aki and Ann).
  await poster.goto(`${BASE_URL}/edit/item/${group._id}/${item._id}`);
  await poster.getByLabel('Offer amount').fill('50');
  await note.getByText(/^🪙 11 more will be held \(🪙 11 in all\)\. You have 🪙 \d+ available\.$/).waitFor();
  await look(poster, 'reward-form-edit', found);
  await poster.getByRole('button', { name: 'Save' }).click();
  await poster.waitForURL(/\/r\/[^/]+$/);
  await poster.getByTestId('reward-held').filter({ hasText: 'Reward held 🪙 11' }).waitFor();

  // Closing gives the rest back, with a notice, in one ledger entry.
  await poster.getByRole('button', { name: 'Close post' }).click();
  await poster.getByRole('dialog', { name: 'Close this post? 🪙 11 still held goes back to your wallet.' }).getByRole('button', { name: 'Confirm' }).click();
  await toast(poster, "Reward released: 'Walk my dog' closed. 🪙 11 is back in your wallet.").waitFor();
  await poster.getByTestId('post-lifetime').filter({ hasText: /^Closed on / }).waitFor();
  assert.equal(await poster.getByTestId('reward-held').count(), 0);
  await poster.getByTestId('reward-paid').filter({ hasText: 'Paid 🪙 40' }).waitFor();
  await look(poster, 'reward-post-closed', found);

  // The feed card says so too, and no longer that the reward is held.
  await poster.goto(`${BASE_URL}/${group._id}`);
  await poster.getByTestId('card-closed').filter({ hasText: 'Closed' }).waitFor();
  assert.equal(await poster.getByTestId('reward-held').count(), 0);
  await look(poster, 'reward-feed-closed', found);

  await poster.goto(`${BASE_URL}/profile`);
  const points = poster.getByTestId('wallet').filter({ hasText: 'Points' });
  await points.waitFor();
  assert.equal(await points.getByTestId('wallet-held').count(), 0, 'nothing is held once the post is closed');
  await poster.getByTestId('rewards-summary').filter({ hasText: 'Rewards paid🪙 40 in 1 offer' }).waitFor();
  await poster.getByTestId('reviews-summary').filter({ hasText: '4 from 1 review' }).waitFor();
  await look(poster, 'reward-profile', found);
  await points.getByRole('button', { name: /Points/ }).click();
  const ledger = poster.getByRole('dialog', { name: 'Transaction History' });
  const released = ledger.getByTestId('ledger-entry').filter({ hasText: "Reward released: 'Walk my dog' closed" });
  await released.getByText('+🪙 11').waitFor();
  await released.getByText('held -🪙 11').waitFor();
  await ledger.getByTestId('ledger-entry').filter({ hasText: "Reward held for 'Walk my dog'" }).filter({ hasText: 'held +🪙 44' }).waitFor();
  await look(poster, 'reward-ledger', found, { fullPage: false });
  await poster.keyboard.press('Escape');

  // Ann reports Pia's review of Aki; Pia, the group's admin, hides it.
  const { user: aki } = await apiGet(askerKey, '/user/me');
  const ann = await pageAs(browser, annKey, VIEWPORTS.phone);
  await ann.goto(`${BASE_URL}/u/${aki._id}`);
  await ann.getByRole('button', { name: 'Report the review by Pia Poster' }).click();
  const report = ann.getByRole('dialog', { name: 'Report this review?' });
  await report.getByLabel('Why (optional)').fill('Names the dog, not the walk');
  await report.getByRole('button', { name: 'Report' }).click();
  await toast(ann, "Reported. The group's moderators will take a look.").waitFor();

  await poster.goto(`${BASE_URL}/group/${group._id}`);
  await poster.getByTestId('reported-count').filter({ hasText: '1 not hidden' }).waitFor();
  await look(poster, 'group-reported-count', found);
  await poster.getByRole('link', { name: 'Reported reviews' }).click();
  const reported = poster.getByTestId('reported-review').filter({ hasText: 'On time, and Bella loved the walk.' });
  await reported.getByText('Reported once: “Names the dog, not the walk”').waitFor();
  await look(poster, 'reported-reviews', found);
  await reported.getByRole('button', { name: 'Hide review' }).click();
  await toast(poster, 'Review hidden').waitFor();
  await reported.getByText('Hidden', { exact: true }).waitFor();

  await ann.reload();
  await ann.getByText('No reviews yet').first().waitFor();
  assert.equal(await ann.getByTestId('review').count(), 0);

  // Two more offers in the chat: the bar reviews the latest, and offers the earlier one unreviewed.
  const chatId = `r_${item._id}_${aki._id}`;
  for (let i = 0; i < 2; i += 1) await apiCall(posterKey, '/api/giveoffer', { cs_id: chatId, offer_amount: 5 });
  await poster.goto(`${BASE_URL}/r/${routeId}`);
  await poster.getByRole('button', { name: 'View Chats' }).click();
  const earlier = chatWindow(poster).getByTestId('earlier-offers');
  await earlier.waitFor();
  await look(poster, 'review-bar-earlier', found, { fullPage: false });
  await earlier.getByRole('button', { name: /^Review 🪙 5, / }).click();
  const earlierReview = poster.getByRole('dialog', { name: 'Review Aki Asker' });
  await earlierReview.getByRole('radio', { name: '4 out of 5 stars' }).click();
  await earlierReview.getByRole('button', { name: 'Post review' }).click();
  await toast(poster, 'Review saved').waitFor();
  await earlier.waitFor({ state: 'detached' });
  await chatWindow(poster).getByTestId('review-bar').getByText('Paid. How was it with Aki?').waitFor();

  assert.deepEqual(found, []);
  for (const page of [poster, asker, ann]) assert.deepEqual(page.errors, []);
});

test("a private group's review: others see its stars only, and the admin it is about leaves it to another moderator", async () => {
  const found = [];
  const [piaKey, akiKey, moKey, samKey] = await Promise.all(
    ['Pia Admin', 'Aki Helper', 'Mo Moderator', 'Sam Stranger'].map((name) => apiLogin(name, uniqueEmail(name.split(' ')[0].toLowerCase()))),
  );
  const [pia, aki, mo] = await Promise.all([piaKey, akiKey, moKey].map(async (key) => (await apiGet(key, '/user/me')).user));
  const { group } = await apiCall(piaKey, '/api/group?action=create', { title: 'Co-op cellar', description: '', is_public: false });
  for (const [key, person] of [
    [akiKey, aki],
    [moKey, mo],
  ]) {
    await apiCall(key, '/api/group?action=join', { group_id: group._id });
    await apiCall(piaKey, '/session/user/update', { session_id: group._id, for_user_id: person._id, action: 'approve' });
  }
  await apiCall(piaKey, '/session/user/update', { session_id: group._id, for_user_id: mo._id, action: 'make_moderator' });
  const { item } = await apiCall(piaKey, '/api/item?action=create', { group_id: group._id, title: 'Fix the boiler', offer_amount: 7, offer_currency: 'POINTS' });
  const chatId = `r_${item._id}_${aki._id}`;
  await apiCall(akiKey, '/session/send', { dest_session_id: chatId, payload: 'On my way', local_id: 'e2e-1' });
  const { move_id: moveId } = await apiCall(piaKey, '/api/giveoffer', { cs_id: chatId, request_id: 'e2e-private' });
  await apiCall(akiKey, '/api/review?action=create', { move_id: moveId, rating: 1, text: 'Paid a week late for the cellar boiler' });

  // Someone outside the group sees the stars and who wrote them, not the words.
  const sam = await pageAs(browser, samKey, VIEWPORTS.phone);
  await sam.goto(`${BASE_URL}/u/${pia._id}`);
  const review = sam.getByTestId('review');
  await review.getByText('Written after an offer in a private group: only its members can read it.').waitFor();
  assert.equal(await review.getByText(/boiler/).count(), 0);
  await look(sam, 'review-private', found);
  await review.getByRole('button', { name: 'Report the review by Aki Helper' }).click();
  await sam.getByRole('dialog', { name: 'Report this review?' }).getByRole('button', { name: 'Report' }).click();
  await toast(sam, "Reported. The group's moderators will take a look.").waitFor();

  // Pia, the admin it is about, may not hide it; Mo, another moderator, does.
  const admin = await pageAs(browser, piaKey);
  await admin.goto(`${BASE_URL}/group/${group._id}/reviews`);
  const aboutPia = admin.getByTestId('reported-review');
  await aboutPia.getByText('About you: another moderator decides.').waitFor();
  assert.equal(await aboutPia.getByRole('button').count(), 0);
  await look(admin, 'reported-review-about-you', found);
  const moderator = await pageAs(browser, moKey);
  await moderator.goto(`${BASE_URL}/group/${group._id}/reviews`);
  const reported = moderator.getByTestId('reported-review');
  await reported.getByRole('button', { name: 'Hide review' }).click();
  await toast(moderator, 'Review hidden').waitFor();
  await reported.getByTestId('hidden-by').filter({ hasText: /^Hidden by Mo Moderator/ }).waitFor();
  await look(moderator, 'reported-review-hidden-by', found);

  assert.deepEqual(found, []);
  for (const page of [sam, admin, moderator]) assert.deepEqual(page.errors, []);
});
