import { describe, expect, it } from 'vitest';
import type { Item } from '../feed/feedApi';
import { fieldsFromForm, formFromItem, initialOfferType } from './itemForm';

const item = { _id: 'i1', title: 'Fix bike', offer_amount: null, offer_description: 'lunch' } as Item;

describe('item form', () => {
  it('starts new posts as value and edits by the offer they have', () => {
    expect(initialOfferType(null)).toBe('value');
    expect(initialOfferType({ offer_amount: 5 })).toBe('value');
    expect(initialOfferType({ offer_amount: 0 })).toBe('value');
    expect(initialOfferType({ offer_amount: null })).toBe('describe');
    expect(initialOfferType({})).toBe('describe');
  });

  it('defaults the currency to points', () => {
    expect(formFromItem(null).offerCurrency).toBe('POINTS');
  });

  it('sends only the chosen kind of offer', () => {
    const form = { ...formFromItem(item), offerAmount: '12.5' };
    expect(fieldsFromForm(form)).toMatchObject({ offer_amount: null, offer_description: 'lunch' });
    expect(fieldsFromForm({ ...form, offerType: 'value' })).toMatchObject({ offer_amount: 12.5, offer_description: '' });
    expect(fieldsFromForm({ ...form, offerType: 'value', offerAmount: '' })).toMatchObject({ offer_amount: null });
  });
});
