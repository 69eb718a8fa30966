import { OFFER_MIN_AMOUNT, OFFER_TOO_SMALL_TEXT } from './constants';
import { POINTS_CURRENCY } from '../../shared/constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { shortBalanceOf, type ShortBalance } from '../../shared/entities/wallet';
import type { GivenOffer, OfferSplit } from './walletApi';
import { outcomeUnknown } from './wallets';

/** Why an amount typed at the prompt cannot be offered, or null: it is sent as typed or not at all. */
export function offerAmountError(amount: number): string | null {
  return amount < OFFER_MIN_AMOUNT ? OFFER_TOO_SMALL_TEXT : null;
}

const FROM_HELD = 'from the reward held for this post';

/**
 * Where the confirm says the payment comes from, as the server will take it (its split's
 * from_held / from_available): the post's held reward, the wallet, or so much of each.
 */
export function offerSourceText(split: Pick<OfferSplit, 'currency' | 'total' | 'from_held' | 'from_available'>): string {
  const held = split.from_held ?? 0;
  const available = split.from_available ?? split.total - held;
  const fromWallet = `from your ${currencyName(split.currency)} wallet`;
  if (held <= 0) return fromWallet;
  if (available <= 0) return FROM_HELD;
  return `${formatMoney(held, split.currency)} ${FROM_HELD} and ${formatMoney(available, split.currency)} ${fromWallet}`;
}

/** The newer of two offers known of a chat (the server's copy and this screen's last reply). */
export function latestOffer(a: GivenOffer | null | undefined, b: GivenOffer | null | undefined): GivenOffer | null {
  if (!a || !b) return a ?? b ?? null;
  return a.at >= b.at ? a : b;
}

/** A post without a currency offers points, the post form's default. */
export function offerCurrency(currency: string | null | undefined): string {
  return currency || POINTS_CURRENCY;
}

export type OfferFailure = ShortBalance | { kind: 'error'; error: unknown };

/** Sorts a failed /api/giveoffer into the spec's two short-balance answers and the rest. */
export function offerFailure(error: unknown): OfferFailure {
  return shortBalanceOf(error) ?? { kind: 'error', error };
}

/** One offer the user confirmed; its request_id stays with it until the outcome is known. */
export interface OfferAttempt {
  requestId: string;
  amount: number;
}

export interface OfferState {
  step: 'idle' | 'prompting' | 'confirming' | 'sending';
  /** The amount being confirmed or sent. */
  amount: number | null;
  /** What the user typed at the prompt, used instead of prompting again until an offer goes through. */
  typed: number | null;
  /** The last attempt whose outcome is not known (sending, or failed without a clear answer). */
  attempt: OfferAttempt | null;
  /** Why the last attempt failed; cleared by the next press. */
  failure: OfferFailure | null;
}

export type OfferEvent =
  /** The button: `itemAmount` is the post's offer_amount, null when it has none. */
  | { type: 'press'; itemAmount: number | null }
  | { type: 'enter'; amount: number }
  | { type: 'cancel' }
  /** `freshRequestId` is used unless an earlier attempt at the same amount is unsettled. */
  | { type: 'confirm'; freshRequestId: string }
  | { type: 'given' }
  | { type: 'failed'; error: unknown };

export const initialOfferState: OfferState = { step: 'idle', amount: null, typed: null, attempt: null, failure: null };

/**
 * The Give offer flow: press -> (prompt for an amount when the post has none) -> confirm
 * -> sending -> given or failed. Pure, so that the component and the tests share it.
 */
export function offerReducer(state: OfferState, event: OfferEvent): OfferState {
  switch (event.type) {
    case 'press': {
      if (state.step !== 'idle') return state;
      const known = event.itemAmount ?? state.typed;
      if (known === null) return { ...state, step: 'prompting', failure: null };
      return { ...state, step: 'confirming', amount: known, failure: null };
    }
    case 'enter':
      if (state.step !== 'prompting') return state;
      return { ...state, step: 'confirming', typed: event.amount, amount: event.amount };
    case 'cancel':
      if (state.step !== 'prompting' && state.step !== 'confirming') return state;
      return { ...state, step: 'idle', amount: null };
    case 'confirm': {
      if (state.step !== 'confirming' || state.amount === null) return state;
      const retry = state.attempt !== null && state.attempt.amount === state.amount;
      const attempt = retry ? state.attempt : { requestId: event.freshRequestId, amount: state.amount };
      return { ...state, step: 'sending', attempt };
    }
    case 'given':
      if (state.step !== 'sending') return state;
      return initialOfferState;
    case 'failed':
      if (state.step !== 'sending') return state;
      return {
        ...state,
        step: 'idle',
        amount: null,
        attempt: outcomeUnknown(event.error) ? state.attempt : null,
        failure: offerFailure(event.error),
      };
  }
}

/** What an item chat says about its post and people (chatApi's Session carries more). */
export interface ItemChatFacts {
  _id: string;
  data: { item_id?: string; owner_id?: string; user_id?: string; item_deleted?: boolean; last_offer?: GivenOffer };
}

/**
 * Who the viewer can give an offer to in this chat: in an item chat (id 'r_...') the
 * post's owner gives to the other participant. Null for anyone else, any other chat and a
 * chat whose post was deleted.
 */
export function offerRecipient(session: ItemChatFacts, meId: string | null): { itemId: string; recipientId: string } | null {
  const { item_id: itemId, owner_id: ownerId, user_id: recipientId } = session.data;
  if (!meId || !session._id.startsWith('r_') || !itemId || ownerId !== meId || session.data.item_deleted) return null;
  if (!recipientId || recipientId === meId) return null;
  return { itemId, recipientId };
}
