import { PHONE_COUNTRY_CODES } from './constants';

/** What the user typed into a phone or "e-mail or phone" field. */
export interface ContactEntry {
  countryCode: string;
  text: string;
}

const DEFAULT_COUNTRY_CODE: string = PHONE_COUNTRY_CODES[0];

export const emptyContact = (): ContactEntry => ({ countryCode: DEFAULT_COUNTRY_CODE, text: '' });

/** A national number starts with a digit and needs a country code; "+..." already has one. */
export function needsCountryCode(text: string): boolean {
  return /^\d/.test(text.trim());
}

/**
 * E.164 ("+31612345678") for a phone entry, null if the entry is not a phone number.
 * Separators are dropped, and so is a national trunk prefix ("06..." in NL -> "+316...").
 */
export function toPhoneNumber({ countryCode, text }: ContactEntry): string | null {
  const trimmed = text.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return digits ? `+${digits}` : null;
  const national = digits.replace(/^0+/, '');
  return national ? `+${countryCode}${national}` : null;
}

export type LoginIdentity = { phone_number: string } | { email_id: string };

/** The identifying field of a login request, or null when nothing usable was typed. */
export function toLoginIdentity(entry: ContactEntry): LoginIdentity | null {
  const text = entry.text.trim();
  if (!text) return null;
  if (/^[+\d]/.test(text)) {
    const phone = toPhoneNumber(entry);
    return phone ? { phone_number: phone } : null;
  }
  return { email_id: text };
}

const codesLongestFirst = [...PHONE_COUNTRY_CODES].sort((a, b) => b.length - a.length);

/** The entry that shows a stored E.164 number: split by an offered country code if one fits. */
export function contactFromPhoneNumber(phoneNumber: string | null | undefined): ContactEntry {
  if (!phoneNumber) return emptyContact();
  const digits = phoneNumber.replace(/^\+/, '');
  const countryCode = codesLongestFirst.find((code) => digits.startsWith(code));
  return countryCode
    ? { countryCode, text: digits.slice(countryCode.length) }
    : { countryCode: DEFAULT_COUNTRY_CODE, text: phoneNumber };
}
