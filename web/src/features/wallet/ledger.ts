import { formatMoney } from '../../shared/currency';
import type { CursorPage } from '../../shared/hooks/useCursorPages';
import type { LedgerEntry, LedgerPage } from './walletApi';

/**
 * Appends an older page to the entries shown, newest first. An entry already shown is
 * kept once: a page boundary that shifted (an entry added while paging) repeats it.
 */
export function mergeLedgerEntries(shown: readonly LedgerEntry[], older: readonly LedgerEntry[]): LedgerEntry[] {
  const seen = new Set(shown.map((entry) => entry._id));
  return [...shown, ...older.filter((entry) => !seen.has(entry._id))];
}

/** The server's page in the shape the paging hook reads; `next_before` is the cursor. */
export function ledgerCursorPage(page: LedgerPage): CursorPage<LedgerEntry> {
  const cursor = page.next_before === null || page.next_before === undefined ? null : String(page.next_before);
  return { items: page.ledger_entries, cursor, hasMore: page.has_more };
}

/** "+$5", "-🪙 2.50": the Transaction column, signed even when positive. */
export function formatLedgerDiff(diff: number, currency: string): string {
  const money = formatMoney(diff, currency);
  return diff > 0 ? `+${money}` : money;
}
