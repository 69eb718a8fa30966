import { describe, expect, it } from 'vitest';
import { PHONE_COUNTRY_CODES } from './constants';
import { contactFromPhoneNumber, needsCountryCode, toLoginIdentity, toPhoneNumber } from './contact';

describe('needsCountryCode', () => {
  it('is true once the entry starts with a digit', () => {
    expect(needsCountryCode('6')).toBe(true);
    expect(needsCountryCode(' 0612')).toBe(true);
  });

  it('is false for e-mail addresses, international numbers and nothing', () => {
    expect(needsCountryCode('ada@example.com')).toBe(false);
    expect(needsCountryCode('+31612345678')).toBe(false);
    expect(needsCountryCode('')).toBe(false);
  });
});

describe('toLoginIdentity', () => {
  it('sends a national number as phone_number with the chosen country code', () => {
    expect(toLoginIdentity({ countryCode: '31', text: '612345678' })).toEqual({ phone_number: '+31612345678' });
    expect(toLoginIdentity({ countryCode: '91', text: '98765 43210' })).toEqual({ phone_number: '+919876543210' });
  });

  it('drops separators and the national trunk zero', () => {
    expect(toLoginIdentity({ countryCode: '31', text: '06-1234 5678' })).toEqual({ phone_number: '+31612345678' });
    expect(toLoginIdentity({ countryCode: '1', text: '415 (555) 0100' })).toEqual({ phone_number: '+14155550100' });
  });

  it('keeps an international number as typed, ignoring the selector', () => {
    expect(toLoginIdentity({ countryCode: '31', text: '+254 712 345678' })).toEqual({ phone_number: '+254712345678' });
  });

  it('sends anything else as email_id, trimmed', () => {
    expect(toLoginIdentity({ countryCode: '31', text: '  ada@example.com ' })).toEqual({ email_id: 'ada@example.com' });
  });

  it('has no identity for an empty entry or a number with letters', () => {
    expect(toLoginIdentity({ countryCode: '31', text: '   ' })).toBeNull();
    expect(toLoginIdentity({ countryCode: '31', text: '0612abc' })).toBeNull();
    expect(toLoginIdentity({ countryCode: '31', text: '+' })).toBeNull();
  });
});

describe('toPhoneNumber', () => {
  it('is null for an e-mail address', () => {
    expect(toPhoneNumber({ countryCode: '31', text: 'ada@example.com' })).toBeNull();
  });
});

describe('contactFromPhoneNumber', () => {
  it('splits a stored number by an offered country code', () => {
    expect(contactFromPhoneNumber('+31612345678')).toEqual({ countryCode: '31', text: '612345678' });
    expect(contactFromPhoneNumber('+14155550100')).toEqual({ countryCode: '1', text: '4155550100' });
    expect(contactFromPhoneNumber('+447700900123')).toEqual({ countryCode: '44', text: '7700900123' });
  });

  it('keeps a number from another country whole', () => {
    expect(contactFromPhoneNumber('+254712345678')).toEqual({ countryCode: PHONE_COUNTRY_CODES[0], text: '+254712345678' });
  });

  it('round-trips through toPhoneNumber', () => {
    for (const number of ['+31612345678', '+14155550100', '+254712345678']) {
      expect(toPhoneNumber(contactFromPhoneNumber(number))).toBe(number);
    }
  });

  it('starts empty without a number', () => {
    expect(contactFromPhoneNumber(null).text).toBe('');
  });
});
