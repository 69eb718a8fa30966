import { formatMoney } from '../../shared/currency';
import { shortBalanceOf, type ShortBalance } from '../../shared/entities/wallet';
import { isApiError } from '../../shared/errors';
import type { HoldPreview, HoldPreviewRequest } from './itemApi';
import { finderFeeError, type ItemForm } from './itemForm';

/** The preview to ask for while the form offers a usable amount, else null (a reward in words holds nothing). */
export function holdRequest(form: ItemForm, itemId: string | undefined): HoldPreviewRequest | null {
  if (form.offerType !== 'value' || finderFeeError(form.finderFeePercent)) return null;
  const amount = Number(form.offerAmount);
  if (form.offerAmount.trim() === '' || !Number.isFinite(amount) || amount <= 0) return null;
  return {
    offer_amount: amount,
    offer_currency: form.offerCurrency,
    finder_fee_percent: Number(form.finderFeePercent),
    ...(itemId ? { item_id: itemId } : {}),
  };
}

/** What the form says under the reward: what will be held, what moves, or why it cannot be. */
export type HoldNote =
  | { kind: 'info'; text: string }
  | { kind: 'refused'; text: string; shortBalance: ShortBalance | null };

/**
 * The preview in words. A new post: "Held when you post: 🪙 44 (reward 🪙 40 + finder's fee
 * 🪙 4). You have 🪙 100 available." An edit says how the hold moves: more held, some given
 * back, or unchanged (a post from before holds, or one whose hold offers used up, holds anew).
 */
export function holdNote(preview: HoldPreview, editing: boolean): HoldNote {
  const money = (amount: number) => formatMoney(amount, preview.currency);
  const available = `You have ${money(preview.available)} available.`;
  if (!preview.enough) {
    const text = `Holding this reward needs ${money(preview.change)} and your wallet has ${money(preview.available)} available.`;
    return { kind: 'refused', text, shortBalance: shortBalanceOf(preview) };
  }
  const parts = preview.pool > 0 ? ` (reward ${money(preview.reward)} + finder’s fee ${money(preview.pool)})` : '';
  if (!editing) return { kind: 'info', text: `Held when you post: ${money(preview.hold)}${parts}. ${available}` };
  // An edit moves the hold by what the server says (`change`): what offers paid from it is gone already.
  const heldAfter = preview.held_now + preview.change;
  if (preview.change > 0) return { kind: 'info', text: `${money(preview.change)} more will be held (${money(heldAfter)} in all). ${available}` };
  if (preview.change < 0) return { kind: 'info', text: `${money(-preview.change)} goes back to your wallet (${money(heldAfter)} stays held).` };
  return { kind: 'info', text: preview.held_now > 0 ? `${money(preview.held_now)} stays held.` : 'Nothing more will be held.' };
}

/** A reward in words: nothing is held, and what an edited post held goes back. */
export function notHeldNote(heldNow: number, currency: string): HoldNote {
  const back = heldNow > 0 ? ` What is held now (${formatMoney(heldNow, currency)}) goes back to your wallet.` : '';
  return { kind: 'info', text: `Not held: a reward in words is between you and the helper.${back}` };
}

/** A refused save or preview (400 or 402) as the note shows it; null for failures the popup should show. */
export function refusedNote(error: unknown): HoldNote | null {
  if (!isApiError(error) || (error.status !== 402 && error.status !== 400)) return null;
  const errors = error.errors;
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return null;
  const fields = errors as Record<string, unknown>;
  // Only the reward's own refusals belong under it; a bad title goes to the popup.
  const text = [fields.offer_amount, fields.offer_currency, fields.finder_fee_percent].filter((value) => typeof value === 'string').join(' ');
  if (!text) return null;
  return { kind: 'refused', text, shortBalance: shortBalanceOf(error) };
}
