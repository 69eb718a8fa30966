import { useState } from 'react';
import { ENTER_OFFER_AMOUNT_TEXT, GIVE_ANOTHER_OFFER_TEXT, GIVE_OFFER_TEXT, OFFER_CONFIRM_TEXT, OFFER_PROMPT_DEFAULT_AMOUNT } from './constants';
import { formatMoney } from '../../shared/currency';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { relativeTime } from '../../shared/relativeTime';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { useUserName } from '../../shared/chat/UserName';
import { fetchItem } from '../../shared/entities/item';
import { FinderFeeRule } from '../../shared/ui/FinderFeeRule';
import { ProfileLink } from '../../shared/ui/ProfileLink';
import { AmountPrompt } from './AmountPrompt';
import { NeedRechargeLink } from '../../shared/ui/NeedRechargeLink';
import { fetchOfferSplit, type GivenOffer, type OfferSplit } from './walletApi';
import { latestOffer, offerAmountError, offerCurrency, offerRecipient, offerSourceText, type ItemChatFacts } from './offer';
import { useGiveOffer } from './useGiveOffer';

/** A bar under the chat header with the Give offer button, for the post's owner in an item chat. */
export function GiveOfferBar({ session, meId }: { session: ItemChatFacts; meId: string | null }) {
  const recipient = offerRecipient(session, meId);
  if (!recipient) return null;
  return (
    <GiveOffer
      key={session._id}
      csId={session._id}
      itemId={recipient.itemId}
      recipientId={recipient.recipientId}
      storedOffer={session.data.last_offer ?? null}
    />
  );
}

interface GiveOfferProps {
  csId: string;
  itemId: string;
  recipientId: string;
  /** The chat's latest offer as the server keeps it. */
  storedOffer: GivenOffer | null;
}

function GiveOffer({ csId, itemId, recipientId, storedOffer }: GiveOfferProps) {
  // Read here rather than passed in: the chat window is also opened from the chat list, without the post.
  const item = useAsyncData(itemId, (signal) => fetchItem(itemId, undefined, signal));
  const offer = useGiveOffer(csId);
  const knownName = useUserName(recipientId);
  const recipientName = knownName ?? 'them';
  const [confirmingAnother, setConfirmingAnother] = useState(false);
  if (item.status !== 'success') return null;

  const { offer_amount: itemAmount = null, offer_currency } = item.data.item;
  const currency = offerCurrency(offer_currency);
  const known = itemAmount ?? offer.state.typed;
  const lastOffer = latestOffer(storedOffer, offer.given);
  const action = lastOffer ? GIVE_ANOTHER_OFFER_TEXT : GIVE_OFFER_TEXT;
  const label = known === null ? action : `${action} ${formatMoney(known, currency)}`;
  const sending = offer.state.step === 'sending';
  const failure = offer.state.failure;

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 bg-amber-50/60 px-3 py-2">
      <Button
        size="sm"
        aria-busy={sending || undefined}
        aria-disabled={sending || undefined}
        data-testid="give-offer"
        className={sending ? 'animate-offer-pending cursor-progress' : ''}
        variant={lastOffer ? 'secondary' : undefined}
        onClick={() => (lastOffer ? setConfirmingAnother(true) : offer.press(itemAmount))}
      >
        {label}
      </Button>
      {knownName && (
        // Whom the offer pays, and the way to their profile: their reviews and the offers they were paid.
        <p data-testid="offer-recipient" className="text-sm text-slate-700">
          to <ProfileLink userId={recipientId}>{knownName}</ProfileLink>
        </p>
      )}
      {lastOffer && (
        <p data-testid="offer-given" className="text-sm text-slate-700">
          Offer given: <span className="font-semibold text-slate-900">{formatMoney(lastOffer.amount, lastOffer.currency)}</span>{' '}
          <time dateTime={new Date(lastOffer.at).toISOString()}>{relativeTime(lastOffer.at)}</time>
        </p>
      )}
      {confirmingAnother && lastOffer && (
        <ConfirmDialog
          title={`${GIVE_ANOTHER_OFFER_TEXT}?`}
          confirmLabel={GIVE_ANOTHER_OFFER_TEXT}
          onConfirm={() => {
            setConfirmingAnother(false);
            offer.press(itemAmount);
          }}
          onCancel={() => setConfirmingAnother(false)}
        >
          <p>
            You gave <span className="font-semibold text-slate-900">{formatMoney(lastOffer.amount, lastOffer.currency)}</span> to{' '}
            <span className="font-semibold text-slate-900">{recipientName}</span> {relativeTime(lastOffer.at)}. Another offer is a new payment.
          </p>
        </ConfirmDialog>
      )}
      {failure?.kind === 'need_stripe_recharge' && <NeedRechargeLink amount={failure.amount} currency={failure.currency} />}

      {offer.state.step === 'prompting' && (
        // Refused as typed, never raised to the minimum: the amount paid is the amount typed.
        <AmountPrompt
          title={ENTER_OFFER_AMOUNT_TEXT}
          currency={currency}
          initial={String(offer.state.typed ?? OFFER_PROMPT_DEFAULT_AMOUNT)}
          submitLabel="OK"
          refusal={offerAmountError}
          onEnter={offer.enter}
          onCancel={offer.cancel}
        />
      )}
      {offer.state.step === 'confirming' && offer.state.amount !== null && (
        <ConfirmDialog title={OFFER_CONFIRM_TEXT} onConfirm={offer.confirm} onCancel={offer.cancel}>
          <OfferConfirmText csId={csId} amount={offer.state.amount} currency={currency} recipientName={recipientName} />
        </ConfirmDialog>
      )}
    </div>
  );
}

interface OfferConfirmProps {
  csId: string;
  amount: number;
  currency: string;
  recipientName: string;
}

/** Who gets the offer and where the money comes from, once the server's split says so (never guessed before). */
function OfferConfirmText({ csId, amount, currency, recipientName }: OfferConfirmProps) {
  const split = useAsyncData(`${csId}:${amount}`, (signal) => fetchOfferSplit(csId, amount, signal));
  const money = <span className="font-semibold text-slate-900">{formatMoney(amount, currency)}</span>;
  const name = <span className="font-semibold text-slate-900">{recipientName}</span>;
  return (
    <>
      <p data-testid="offer-source">
        {money} goes to {name}
        {split.status === 'success' ? `, paid ${offerSourceText(split.data)}.` : '.'}
      </p>
      {split.status === 'success' && <OfferSplitList split={split.data} recipientName={recipientName} />}
    </>
  );
}

/** The finder's fees this offer pays on top, as the server computes them, the total, and the rule they follow. */
function OfferSplitList({ split, recipientName }: { split: OfferSplit; recipientName: string }) {
  const { currency, finder_fees, offer_amount, participant_name, total, from_held: fromHeld = 0, from_available: fromAvailable = total } = split;
  if (finder_fees.length === 0 && fromHeld === 0) return null;
  return (
    <>
      <dl data-testid="offer-split" className="mt-3 space-y-1 rounded-xl bg-slate-50 p-3 text-sm">
        <div className="flex justify-between gap-3">
          <dt>Offer to {participant_name || recipientName}</dt>
          <dd className="font-medium">{formatMoney(offer_amount, currency)}</dd>
        </div>
        {finder_fees.map((fee) => (
          <div key={fee.user_id} className="flex justify-between gap-3">
            <dt>Finder&apos;s fee to {fee.name}</dt>
            <dd className="font-medium">{formatMoney(fee.amount, currency)}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-3 border-t border-slate-200 pt-1 font-semibold text-slate-900">
          <dt>Total</dt>
          <dd>{formatMoney(total, currency)}</dd>
        </div>
        {fromHeld > 0 && (
          // Rows of the list itself: a <dl> takes no wrapper around its <div> rows.
          <>
            <div className="flex justify-between gap-3 border-t border-slate-200 pt-1 text-slate-600">
              <dt>From the reward held for this post</dt>
              <dd>{formatMoney(fromHeld, currency)}</dd>
            </div>
            <div className="flex justify-between gap-3 text-slate-600">
              <dt>From your available balance</dt>
              <dd>{formatMoney(fromAvailable, currency)}</dd>
            </div>
          </>
        )}
      </dl>
      {finder_fees.length > 0 && <FinderFeeRule collapsed className="mt-3 text-xs text-slate-600" />}
    </>
  );
}
