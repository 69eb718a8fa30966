import { useDebounced } from '../../shared/hooks/useDebounced';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import type { Item } from '../../shared/entities/item';
import { NeedRechargeLink } from '../../shared/ui/NeedRechargeLink';
import { holdNote, holdRequest, notHeldNote, refusedNote, type HoldNote as Note } from './hold';
import { previewHold } from './itemApi';
import type { ItemForm } from './itemForm';

/** Long enough for a typed number to settle, short enough to read as an answer to it. */
export const HOLD_PREVIEW_DEBOUNCE_MS = 400;

/**
 * The server's preview of what the reward typed would hold (or move, for an edit), asked once
 * the typing settles; null while there is nothing to ask (a reward in words, no amount).
 */
export function useHoldNote(form: ItemForm, item: Item | null): Note | null {
  const request = holdRequest(form, item?._id);
  const key = useDebounced(request ? JSON.stringify(request) : '', HOLD_PREVIEW_DEBOUNCE_MS);
  const preview = useAsyncData(key, (signal) => (key ? previewHold(JSON.parse(key), signal) : Promise.resolve(null)));
  // Money that arrived meanwhile (a recharge in another tab, an offer paid to the poster) changes the answer.
  useSocketEvent('wallet', preview.reload, key !== '');
  if (form.offerType === 'describe') return notHeldNote(item?.reward_held ?? 0, item?.offer_currency ?? '');
  if (!request || key !== JSON.stringify(request)) return null;
  if (preview.status === 'success' && preview.data) return holdNote(preview.data, item !== null);
  if (preview.status === 'error') return refusedNote(preview.error);
  return null;
}

/** Under the reward: what will be held, or why it cannot be, with the way to recharge. */
export function HoldNote({ note }: { note: Note | null }) {
  return (
    <div aria-live="polite" data-testid="hold-note" className="min-h-5 text-sm">
      {note?.kind === 'info' && <p className="rounded-xl bg-emerald-50 px-3 py-2 text-emerald-900">{note.text}</p>}
      {note?.kind === 'refused' && (
        <div role="alert" className="space-y-1 rounded-xl bg-red-50 px-3 py-2 text-red-800">
          <p>{note.text}</p>
          {note.shortBalance?.kind === 'need_stripe_recharge' && <NeedRechargeLink amount={note.shortBalance.amount} currency={note.shortBalance.currency} />}
          {note.shortBalance?.kind === 'need_recharge' && <p>{note.shortBalance.message}</p>}
        </div>
      )}
    </div>
  );
}
