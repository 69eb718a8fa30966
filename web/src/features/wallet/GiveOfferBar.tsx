import { useId, useState, type FormEvent } from 'react';
import {
  ENTER_OFFER_AMOUNT_TEXT,
  GIVE_OFFER_TEXT,
  OFFER_CONFIRM_TEXT,
  OFFER_PROMPT_DEFAULT_AMOUNT,
} from '../../shared/constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { Modal } from '../../shared/ui/Modal';
import { TextField } from '../../shared/ui/TextField';
import { useUserName } from '../chat/UserName';
import { fetchItem } from '../item/itemApi';
import { NeedRechargeLink } from './NeedRechargeLink';
import { offerCurrency, offerDisplayAmount, offerRecipient, type ItemChatFacts } from './offer';
import { useGiveOffer } from './useGiveOffer';
import { parseAmountText } from './wallets';

/** A bar under the chat header with the Give offer button, for the post's owner in an item chat. */
export function GiveOfferBar({ session, meId }: { session: ItemChatFacts; meId: string | null }) {
  const recipient = offerRecipient(session, meId);
  if (!recipient) return null;
  return <GiveOffer key={session._id} csId={session._id} itemId={recipient.itemId} recipientId={recipient.recipientId} />;
}

function GiveOffer({ csId, itemId, recipientId }: { csId: string; itemId: string; recipientId: string }) {
  // Read here rather than passed in: the chat window is also opened from the chat list, without the post.
  const item = useAsyncData(itemId, (signal) => fetchItem(itemId, undefined, signal));
  const offer = useGiveOffer(csId);
  const recipientName = useUserName(recipientId) ?? 'them';
  if (item.status !== 'success') return null;

  const { offer_amount: itemAmount = null, offer_currency } = item.data.item;
  const currency = offerCurrency(offer_currency);
  const known = itemAmount ?? offer.state.typed;
  const label = known === null ? GIVE_OFFER_TEXT : `${GIVE_OFFER_TEXT} ${formatMoney(offerDisplayAmount(known), currency)}`;
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
        onClick={() => offer.press(itemAmount)}
      >
        {label}
      </Button>
      {failure?.kind === 'need_stripe_recharge' && <NeedRechargeLink amount={failure.amount} currency={failure.currency} />}

      {offer.state.step === 'prompting' && (
        <OfferAmountPrompt
          currency={currency}
          initial={offer.state.typed ?? OFFER_PROMPT_DEFAULT_AMOUNT}
          onEnter={offer.enter}
          onCancel={offer.cancel}
        />
      )}
      {offer.state.step === 'confirming' && offer.state.amount !== null && (
        <ConfirmDialog title={OFFER_CONFIRM_TEXT} onConfirm={offer.confirm} onCancel={offer.cancel}>
          <p>
            <span className="font-semibold text-slate-900">{formatMoney(offer.state.amount, currency)}</span> goes from your{' '}
            {currencyName(currency)} wallet to <span className="font-semibold text-slate-900">{recipientName}</span>.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

interface OfferAmountPromptProps {
  currency: string;
  initial: number;
  onEnter: (amount: number) => void;
  onCancel: () => void;
}

/** The spec's 'Enter offer amount' prompt, for a post that names no amount. */
function OfferAmountPrompt({ currency, initial, onEnter, onCancel }: OfferAmountPromptProps) {
  const id = useId();
  const [text, setText] = useState(String(initial));
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAmountText(text);
    if ('error' in parsed) setError(parsed.error);
    else onEnter(parsed.amount);
  };

  return (
    <Modal title={ENTER_OFFER_AMOUNT_TEXT} onClose={onCancel}>
      <form onSubmit={submit} noValidate>
        <TextField
          id={id}
          label={`Amount in ${currencyName(currency)}`}
          inputMode="decimal"
          value={text}
          error={error}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
          }}
          data-autofocus
        />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">OK</Button>
        </div>
      </form>
    </Modal>
  );
}
