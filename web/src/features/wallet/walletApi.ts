import { api } from '../../shared/api';
import type { Wallet } from '../../shared/entities/wallet';

/** One balance change; `diff` is signed and `change_to` is the balance after it. */
export interface LedgerEntry {
  _id: string;
  wallet_id: string;
  seq: number;
  ref_type: string;
  ref_id: string;
  title: string;
  created_at: number;
  /** Change of the available balance, and the available balance after it. */
  diff: number;
  change_to: number;
  /** Change of the held part (reward holds, releases, offers paid from a hold), and held after it; 0 when untouched. */
  held_diff?: number;
  held_to?: number;
  /** The post whose reward the entry concerns, or null. */
  item_id?: string | null;
}

export interface LedgerPage {
  ledger_entries: LedgerEntry[];
  has_more: boolean;
  next_before: string | number | null;
}

export function fetchLedger(wallet: Wallet, before?: string, signal?: AbortSignal): Promise<LedgerPage> {
  return api.get<LedgerPage>(
    '/api/wallet/ledger',
    { wallet_user_id: wallet.user_id, wallet_for: wallet.wallet_for, wallet_currency: wallet.wallet_currency, before },
    { signal },
  );
}

export type WithdrawReply = { redirect: string } | { success: boolean; wallet: Wallet };

/** Pays `amount` of the wallet out (or answers with the payout onboarding page to go to first). */
export function withdraw(wallet: Wallet, amount: number, requestId: string): Promise<WithdrawReply> {
  return api.post<WithdrawReply>('/api/wallet/withdraw', {
    wallet_for: wallet.wallet_for,
    wallet_currency: wallet.wallet_currency,
    amount,
    request_id: requestId,
  });
}

/** The latest offer given in a chat, as the server keeps it (`data.last_offer`). */
export interface GivenOffer {
  move_id: string;
  amount: number;
  currency: string;
  at: number;
}

export interface GiveOfferRequest {
  cs_id: string;
  offer_amount: number;
  request_id: string;
}

export interface GiveOfferReply {
  success: boolean;
  wallet: Wallet;
  move_id: string;
  /** Where the payment came from: the post's held reward first, the rest from available. */
  paid_from_held?: number;
  paid_from_available?: number;
  /** The offer as the chat now shows it (`data.last_offer`). */
  last_offer: GivenOffer;
  /** Each sharer paid a finder's fee, nearest the asker first. */
  finder_fees: FinderFee[];
}

export interface FinderFee {
  user_id: string;
  name: string;
  amount: number;
}

/** What an offer would pay, as the server will pay it: the offer, each sharer's fee, the total. */
export interface OfferSplit {
  offer_amount: number;
  /** The asker the offer goes to, named by the server (no lookup to wait for). */
  participant_name: string;
  currency: string;
  finder_fees: FinderFee[];
  total: number;
  /** What paying it would take from the post's held reward, and from the available balance. */
  from_held?: number;
  from_available?: number;
}

/** A finder's fee paid to the caller, with the post it came from. */
export interface EarnedFee {
  move_id: string;
  item_id: string;
  title: string;
  route_id: string | null;
  amount: number;
  currency: string;
  created_at: number;
}

export function fetchEarnedFees(signal?: AbortSignal): Promise<{ finder_fees: EarnedFee[] }> {
  return api.get<{ finder_fees: EarnedFee[] }>('/api/finder_fees', undefined, { signal });
}

export function fetchOfferSplit(csId: string, amount: number, signal?: AbortSignal): Promise<OfferSplit> {
  return api.post<OfferSplit>('/api/giveoffer/split', { cs_id: csId, offer_amount: amount }, { signal });
}

/** A short balance is a 402 whose `errors` holds need_stripe_recharge or need_recharge. */
export function giveOffer(request: GiveOfferRequest): Promise<GiveOfferReply> {
  return api.post<GiveOfferReply>('/api/giveoffer', request);
}

export interface RechargeReply {
  stripe_checkout_data: { id: string; url: string };
}

export function createRecharge(amount: number, currency: string): Promise<RechargeReply> {
  return api.post<RechargeReply>('/api/recharge', { amount, currency });
}

/** The raw reply; parseRechargeStatus (recharge.ts) reads it. */
export function fetchRechargeStatus(sessionId: string, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/api/recharge/status', { session_id: sessionId }, { signal });
}

export function newRequestId(): string {
  return crypto.randomUUID();
}
