// The wallets', offers' and payments' limits and texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

// --- Wallets, offers and payments (spec sections 2, 4, 8 and 9) ---
/** The smallest offer: a smaller amount is refused (here and by the server), never raised. */
export const OFFER_MIN_AMOUNT = server.OFFER_MIN_AMOUNT;
export const OFFER_TOO_SMALL_TEXT = `The smallest offer is ${OFFER_MIN_AMOUNT}`;
export const GIVE_ANOTHER_OFFER_TEXT = 'Give another offer';
export const OFFER_PROMPT_DEFAULT_AMOUNT = server.OFFER_PROMPT_DEFAULT;
export const ENTER_OFFER_AMOUNT_TEXT = 'Enter offer amount';
export const OFFER_CONFIRM_TEXT = 'Confirm Again to proceed with offer.';
export const OFFER_GIVEN_TEXT = 'Offer Successfully given';
export const GIVE_OFFER_TEXT = 'Give offer';
/** The title over the server's need_recharge message: points are not recharged (bought), so not 'Need Recharge'. */
export const NOT_ENOUGH_POINTS_TEXT = 'Not enough points';

export const RECHARGE_DEFAULT_AMOUNT = server.RECHARGE_DEFAULT_AMOUNT;
export const RECHARGE_DEFAULT_CURRENCY = server.RECHARGE_DEFAULT_CURRENCY;
/** The bounds of one recharge; the server refuses anything outside them. */
export const RECHARGE_MIN_AMOUNT = server.RECHARGE_MIN_AMOUNT;
export const RECHARGE_MAX_AMOUNT = server.RECHARGE_MAX_AMOUNT;
/** What a card can top up (the server's CARD_CURRENCIES); points are earned, never bought. */
export const CARD_CURRENCIES: readonly string[] = server.CARD_CURRENCIES;
export const RECHARGE_TEXT = 'Recharge';
export const CANNOT_WITHDRAW_POINTS_TEXT = 'You cannot withdraw points';
/** Kept as the spec spells it ('Reacharging'): the page title is part of the contract. */
/** `amount` as currency.ts's formatAmount writes it. */
export const rechargeTitle = (amount: string, currency: string) => `Reacharging ${amount} ${currency}`;
export const PAYMENT_SUCCESS_TEXT = 'Payment successful';
/** The webhook that credits the wallet may land after the provider sends the browser back. */
export const RECHARGE_STATUS_POLL_MS = 1500;
export const RECHARGE_STATUS_TIMEOUT_MS = 30_000;
export const LEDGER_TITLE = 'Transaction History';
export const LEDGER_COLUMNS = ['Title', 'Date', 'Transaction', 'Balance'] as const;
export const LEDGER_EOF_TEXT = 'EOF';
export const WITHDRAW_TEXT = 'Withdraw';
export const WITHDRAW_DONE_TEXT = 'Withdrawal successful';
/** The server's answer to withdrawing from an empty wallet, shown instead of the button. */
export const NOTHING_TO_WITHDRAW_TEXT = 'Nothing to withdraw';
/** Query params that make /profile show a hint banner, with the banner text. */
export const PROFILE_HINTS: ReadonlyArray<readonly [param: string, text: string]> = [
  ['can_withdraw', 'You can withdraw your money now'],
  ['retry_withdraw', 'Please retry withdraw option again'],
];
