import { useCallback, type ReactNode } from 'react';
import { LEDGER_COLUMNS, LEDGER_EOF_TEXT, LEDGER_TITLE } from './constants';
import { LOADING_TEXT } from '../../shared/constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { describeError } from '../../shared/errors';
import { useCursorPages } from '../../shared/hooks/useCursorPages';
import { useMediaQuery } from '../../shared/hooks/useMediaQuery';
import { Button } from '../../shared/ui/Button';
import { Modal } from '../../shared/ui/Modal';
import { Spinner } from '../../shared/ui/Spinner';
import type { Wallet } from '../../shared/entities/wallet';
import { heldChangeText, heldOf } from './holds';
import { formatLedgerDiff, ledgerCursorPage, mergeLedgerEntries } from './ledger';
import { fetchLedger, type LedgerEntry } from './walletApi';
import { walletKey } from './wallets';

const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hour12: false });

/** Phones get two stacked columns (Title over Date, Transaction over Balance) instead of four. */
const FOUR_COLUMNS_QUERY = '(min-width: 640px)';
const numeric = 'text-right whitespace-nowrap tabular-nums';

/** The wallet ledger popup: newest entries first, older pages as the table scrolls, EOF at the end. */
export function LedgerDialog({ wallet, onClose }: { wallet: Wallet; onClose: () => void }) {
  const fetchPage = useCallback((before?: string) => fetchLedger(wallet, before).then(ledgerCursorPage), [wallet]);
  // A new balance (a live update) means new entries: start again from the newest.
  const ledger = useCursorPages(`${walletKey(wallet)}:${wallet.wallet_amount}:${heldOf(wallet)}`, fetchPage, mergeLedgerEntries);
  const stacked = !useMediaQuery(FOUR_COLUMNS_QUERY);
  const currency = wallet.wallet_currency;
  const [title, date, transaction, balance] = LEDGER_COLUMNS;
  const headings = stacked ? [`${title} / ${date}`, `${transaction} / ${balance}`] : LEDGER_COLUMNS;

  return (
    <Modal title={LEDGER_TITLE} onClose={onClose} wide>
      <p className="-mt-3 mb-4 text-sm text-slate-500">
        {currencyName(currency)} · available <span className="font-semibold text-slate-800 tabular-nums">{formatMoney(wallet.wallet_amount, currency)}</span>
        {heldOf(wallet) > 0 && (
          <>
            {' '}
            · held <span className="font-semibold text-slate-800 tabular-nums">{formatMoney(heldOf(wallet), currency)}</span>
          </>
        )}
      </p>
      <div
        onScroll={ledger.onBoxScroll}
        // Focusable, so that a keyboard can scroll a list longer than the box.
        tabIndex={0}
        role="region"
        aria-label={`${LEDGER_TITLE}: entries`}
        data-testid="ledger-scroll"
        className="max-h-[60dvh] overflow-auto rounded-2xl ring-1 ring-slate-200"
      >
        <table className="w-full border-collapse text-left text-sm">
          <thead className="sticky top-0 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              {headings.map((heading, index) => (
                <th key={heading} scope="col" className={`px-3 py-2.5 ${index >= headings.length / 2 ? 'text-right' : ''}`}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {ledger.items.map((entry) => (
              <LedgerRow key={entry._id} entry={entry} currency={currency} stacked={stacked} />
            ))}
            <LedgerFooter ledger={ledger} columns={headings.length} />
          </tbody>
        </table>
      </div>
    </Modal>
  );
}

function LedgerRow({ entry, currency, stacked }: { entry: LedgerEntry; currency: string; stacked: boolean }) {
  const title = <span className="font-medium break-words text-slate-800">{entry.title}</span>;
  const date = (
    <time dateTime={new Date(entry.created_at).toISOString()} className="text-slate-500">
      {dayFormat.format(entry.created_at)} <span className="text-xs text-slate-500">{timeFormat.format(entry.created_at)}</span>
    </time>
  );
  const heldChange = heldChangeText(entry, currency);
  // An entry that only moved the held part (a hold paid from it, a release's held side) shows that move alone.
  const transaction = (
    <>
      {(entry.diff !== 0 || !heldChange) && (
        <span className={`font-semibold ${entry.diff < 0 ? 'text-red-600' : 'text-emerald-700'}`}>{formatLedgerDiff(entry.diff, currency)}</span>
      )}
      {heldChange && (
        <span data-testid="ledger-held" className="block text-xs font-medium text-slate-600">
          {heldChange}
        </span>
      )}
    </>
  );
  const balance = <span className="text-slate-700">{formatMoney(entry.change_to, currency)}</span>;

  if (stacked) {
    return (
      <tr data-testid="ledger-entry" className="align-top">
        <td className="px-3 py-2.5">
          {title}
          <span className="mt-0.5 block text-xs">{date}</span>
        </td>
        <td className={`px-3 py-2.5 ${numeric}`}>
          {transaction}
          <span className="mt-0.5 block text-xs">{balance}</span>
        </td>
      </tr>
    );
  }
  return (
    <tr data-testid="ledger-entry" className="align-top">
      <td className="px-3 py-2.5">{title}</td>
      <td className="px-3 py-2.5 whitespace-nowrap">{date}</td>
      <td className={`px-3 py-2.5 ${numeric}`}>{transaction}</td>
      <td className={`px-3 py-2.5 ${numeric}`}>{balance}</td>
    </tr>
  );
}

/** The last row: loading, the error with a retry, or the EOF marker once every page is shown. */
function LedgerFooter({ ledger, columns }: { ledger: ReturnType<typeof useCursorPages<LedgerEntry>>; columns: number }) {
  const cell = (content: ReactNode, className = '') => (
    <tr>
      <td colSpan={columns} className={`px-3 py-3 text-center text-xs ${className}`}>
        {content}
      </td>
    </tr>
  );
  if (ledger.loading) {
    return cell(
      <span role="status" className="inline-flex items-center gap-2 text-slate-500">
        <Spinner className="size-4" /> {LOADING_TEXT}
      </span>,
    );
  }
  if (ledger.error) {
    return cell(
      <div role="alert" className="flex flex-col items-center gap-2 text-red-700">
        {describeError(ledger.error).join(' ')}
        <Button variant="secondary" size="sm" onClick={ledger.retry}>
          Try again
        </Button>
      </div>,
    );
  }
  if (ledger.hasMore) return null;
  return (
    <>
      {ledger.items.length === 0 && cell('No transactions yet.', 'text-sm text-slate-500')}
      {cell(LEDGER_EOF_TEXT, 'font-mono font-semibold tracking-widest text-slate-500')}
    </>
  );
}
