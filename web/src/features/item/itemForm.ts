import { FINDER_FEE_PERCENT_DEFAULT, FINDER_FEE_PERCENT_MAX } from './constants';
import { POINTS_CURRENCY } from '../../shared/constants';
import type { Item, ItemFile } from '../../shared/entities/item';
import { finderFeePool } from '../../shared/entities/finderFee';
import type { ItemFields } from './itemApi';

export type OfferType = 'value' | 'describe';

export interface ItemForm {
  title: string;
  description: string;
  files: ItemFile[];
  tags: string[];
  offerType: OfferType;
  /** As typed, so that an empty box stays empty. */
  offerAmount: string;
  offerCurrency: string;
  offerDescription: string;
  needUserToView: boolean;
  /** As typed: a whole number from 0 to FINDER_FEE_PERCENT_MAX. */
  finderFeePercent: string;
}

/** A new post offers a value; an edited one starts with the kind of offer it has. */
export function initialOfferType(item: Pick<Item, 'offer_amount'> | null): OfferType {
  if (!item) return 'value';
  return item.offer_amount != null ? 'value' : 'describe';
}

export function formFromItem(item: Item | null): ItemForm {
  return {
    title: item?.title ?? '',
    description: item?.description ?? '',
    files: item?.files ?? [],
    tags: item?.tags ?? [],
    offerType: initialOfferType(item),
    offerAmount: item?.offer_amount != null ? String(item.offer_amount) : '',
    offerCurrency: item?.offer_currency || POINTS_CURRENCY,
    offerDescription: item?.offer_description ?? '',
    needUserToView: item?.need_user_to_view ?? false,
    finderFeePercent: String(item && item.offer_amount != null ? (item.finder_fee_percent ?? 0) : FINDER_FEE_PERCENT_DEFAULT),
  };
}

/** The request body: only the chosen kind of offer is sent. */
export function fieldsFromForm(form: ItemForm): ItemFields {
  const amount = form.offerAmount.trim() === '' ? null : Number(form.offerAmount);
  const isValue = form.offerType === 'value';
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    files: form.files.map((file) => file.url),
    tags: form.tags,
    offer_amount: isValue && amount !== null && Number.isFinite(amount) ? amount : null,
    offer_currency: form.offerCurrency,
    offer_description: isValue ? '' : form.offerDescription.trim(),
    need_user_to_view: form.needUserToView,
    // Sent as typed when it is not a whole number, so the server's message explains it.
    finder_fee_percent: isValue ? (/^\d+$/.test(form.finderFeePercent.trim()) ? Number(form.finderFeePercent) : form.finderFeePercent) : 0,
  };
}

/** Why the typed finder's fee cannot be saved, or null. */
export function finderFeeError(percentText: string): string | null {
  const text = percentText.trim();
  if (/^\d+$/.test(text) && Number(text) <= FINDER_FEE_PERCENT_MAX) return null;
  return `A whole number from 0 to ${FINDER_FEE_PERCENT_MAX}`;
}

/** The fee pool the typed amount and percent mean, rounded down to the cent as the server does; null when either is not usable. */
export function finderFeeAmount(amountText: string, percentText: string): number | null {
  const amount = Number(amountText);
  if (amountText.trim() === '' || !Number.isFinite(amount) || amount <= 0 || finderFeeError(percentText)) return null;
  return finderFeePool(amount, Number(percentText));
}
