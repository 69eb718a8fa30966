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
 * The app's one way to show an amount: "$12", "€3.50", "KSh 1,200", "🪙 40", "🪙 2.50",
 * "CAD 5". Whole amounts have no decimals, any other has two (never "2.5"), points as
 * currencies. A currency sign of one character sits against the number; word-like symbols,
 * the coin and bare codes get a space. The server writes amounts in its texts (chat notices,
 * pushes) the same way: currency.test.ts holds this to its examples.
 */
export function formatMoney(amount: number, currency: string): string {
  const symbol = currencySymbol(currency);
  const tight = /^\p{Sc}$/u.test(symbol);
  return `${amount < 0 ? '-' : ''}${symbol}${tight ? '' : ' '}${formatAmount(Math.abs(amount))}`;
}

/** The number alone, as formatMoney writes it: "12", "2.50", "1,200". */
export function formatAmount(amount: number): string {
  return Number.isInteger(amount) ? wholeNumber.format(amount) : withCents.format(amount);
}
