import { CURRENCY_SYMBOLS, POINTS_CURRENCY } from './constants';

export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency.toUpperCase()] ?? currency;
}

const currencyNames = new Intl.DisplayNames('en', { type: 'currency', fallback: 'code' });

/** "Euro", "Kenyan Shilling", "Points"; an unknown code stays a code. */
export function currencyName(currency: string): string {
  const code = currency.toUpperCase();
  if (code === POINTS_CURRENCY) return 'Points';
  try {
    return currencyNames.of(code) ?? code;
  } catch {
    // DisplayNames throws for anything that is not three letters.
    return code;
  }
}

const wholeNumber = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * "$12", "€3.50", "KSh 1,200", "🪙 40", "CAD 5": one-character signs sit against the
 * number, word-like symbols, the coin and bare codes get a space.
 */
export function formatMoney(amount: number, currency: string): string {
  const symbol = currencySymbol(currency);
  const magnitude = Math.abs(amount);
  const digits = Number.isInteger(magnitude) ? wholeNumber.format(magnitude) : withCents.format(magnitude);
  const tight = symbol.length === 1 && !/\p{L}/u.test(symbol);
  return `${amount < 0 ? '-' : ''}${symbol}${tight ? '' : ' '}${digits}`;
}
