import { describe, expect, it } from 'vitest';
import { formatLedgerDiff, ledgerCursorPage, mergeLedgerEntries } from './ledger';
import type { LedgerEntry } from './walletApi';

const entry = (seq: number): LedgerEntry => ({
  _id: `e${seq}`,
  wallet_id: 'u1:user:POINTS',
  seq,
  ref_type: 'offer',
  ref_id: `m${seq}`,
  title: `Entry ${seq}`,
  created_at: seq * 1000,
  diff: -1,
  change_to: 100 - seq,
});

describe('mergeLedgerEntries', () => {
  it('appends an older page after the entries shown, newest first', () => {
    const merged = mergeLedgerEntries([entry(5), entry(4)], [entry(3), entry(2)]);
    expect(merged.map((e) => e.seq)).toEqual([5, 4, 3, 2]);
  });

  it('shows an entry repeated across a page boundary once', () => {
    const merged = mergeLedgerEntries([entry(5), entry(4)], [entry(4), entry(3)]);
    expect(merged.map((e) => e._id)).toEqual(['e5', 'e4', 'e3']);
  });
});

describe('ledgerCursorPage', () => {
  it("turns next_before into the paging cursor, numbers included", () => {
    expect(ledgerCursorPage({ ledger_entries: [entry(1)], has_more: true, next_before: 31 })).toEqual({ items: [entry(1)], cursor: '31', hasMore: true });
    expect(ledgerCursorPage({ ledger_entries: [], has_more: false, next_before: null })).toEqual({ items: [], cursor: null, hasMore: false });
  });
});

describe('formatLedgerDiff', () => {
  it('signs every change, credits included', () => {
    expect(formatLedgerDiff(5, 'USD')).toBe('+$5');
    expect(formatLedgerDiff(-2.5, 'USD')).toBe('-$2.50');
    expect(formatLedgerDiff(10, 'POINTS')).toBe('+🪙 10');
  });
});
