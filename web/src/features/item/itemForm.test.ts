import { describe, expect, it } from 'vitest';
import type { Item } from '../../shared/entities/item';
import { fieldsFromForm, finderFeeAmount, finderFeeError, formFromItem, initialOfferType } from './itemForm';

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

describe("finder's fee field", () => {
  it('shows the money the percent means, rounded down to the cent', () => {
    expect(finderFeeAmount('10.01', '25')).toBe(2.5);
    expect(finderFeeAmount('16', '25')).toBe(4);
    expect(finderFeeAmount('', '25')).toBeNull();
  });

  it('accepts whole numbers from 0 to 50 only', () => {
    expect(finderFeeError('0')).toBeNull();
    expect(finderFeeError('50')).toBeNull();
    for (const bad of ['51', '-1', '2.5', 'ten', '']) expect(finderFeeError(bad)).toBe('A whole number from 0 to 50');
  });

  it('is sent as a number for a value offer and as 0 for a described one', () => {
    const form = { ...formFromItem(null), offerAmount: '5', finderFeePercent: '20' };
    expect(fieldsFromForm(form).finder_fee_percent).toBe(20);
    expect(fieldsFromForm({ ...form, offerType: 'describe' }).finder_fee_percent).toBe(0);
    expect(formFromItem(null).finderFeePercent).toBe('10');
  });
});
