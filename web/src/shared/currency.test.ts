import { describe, expect, it } from 'vitest';
import { currencyName, currencySymbol, formatMoney } from './currency';
import { MONEY_FORMAT_EXAMPLES } from './generated/serverConstants';

describe('currencySymbol', () => {
  it.each([
    ['KES', 'KSh'],
    ['USD', '$'],
    ['INR', '₹'],
    ['EUR', '€'],
    ['GBP', '£'],
    ['NGN', '₦'],
    ['RWF', 'Rwf'],
    ['POINTS', '🪙'],
    ['ZAR', 'R'],
  ])('%s -> %s', (code, symbol) => {
    expect(currencySymbol(code)).toBe(symbol);
  });

  it('shows an unknown code as the code itself', () => {
    expect(currencySymbol('CAD')).toBe('CAD');
  });

  it('accepts lower-case codes', () => {
    expect(currencySymbol('eur')).toBe('€');
  });
});

describe('formatMoney', () => {
  it('puts one-character signs against the number', () => {
    expect(formatMoney(12, 'USD')).toBe('$12');
    expect(formatMoney(3.5, 'EUR')).toBe('€3.50');
  });

  it('spaces word-like symbols, the coin and bare codes', () => {
    expect(formatMoney(1200, 'KES')).toBe('KSh 1,200');
    expect(formatMoney(40, 'POINTS')).toBe('🪙 40');
    expect(formatMoney(5, 'CAD')).toBe('CAD 5');
  });

  it('puts the minus before the symbol', () => {
    expect(formatMoney(-2.25, 'GBP')).toBe('-£2.25');
  });

  it('always writes cents when there are any, points as currencies', () => {
    expect(formatMoney(2.5, 'POINTS')).toBe('🪙 2.50');
    expect(formatMoney(0.5, 'USD')).toBe('$0.50');
  });

  it.each(MONEY_FORMAT_EXAMPLES)(
    "writes %s %s as the server's texts do: %s",
    (amount, currency, text) => {
      expect(formatMoney(amount, currency)).toBe(text);
    },
  );
});

describe('currencyName', () => {
  it('names currencies and points, and keeps unknown codes', () => {
    expect(currencyName('EUR')).toBe('Euro');
    expect(currencyName('POINTS')).toBe('Points');
    expect(currencyName('XYZ1')).toBe('XYZ1');
  });
});
