// Money in the browser tests: paying on the Stripe stand-in's hosted card form, and the
// withdraw dialogs of /profile.

export const STRIPE_URL = process.env.AGORA_E2E_STRIPE_URL;

/** Pays on the stand-in's hosted card form the page was sent to; waits for the way back. */
export async function payByCard(page, nameOnCard) {
  await page.waitForURL(`${STRIPE_URL}/**`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill(nameOnCard);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/afterpayment\/stripe\?session_id=/);
}

/**
 * Withdraws from the wallet called `walletName` on /profile through the amount and confirm
 * dialogs: `amount` typed (all of it when not given), `shown` as the confirmation writes it ('€5').
 */
export async function withdraw(page, walletName, shown, amount) {
  await page.getByTestId('wallet').filter({ hasText: walletName }).getByRole('button', { name: 'Withdraw' }).click();
  const ask = page.getByRole('dialog', { name: `Withdraw ${walletName}` });
  if (amount !== undefined) await ask.getByLabel(`Amount in ${walletName}`).fill(amount);
  await ask.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: `Withdraw ${shown} to your payout account?` }).getByRole('button', { name: `Withdraw ${shown}` }).click();
}
