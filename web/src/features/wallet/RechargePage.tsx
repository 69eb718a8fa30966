import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/constants';
import { RECHARGE_MAX_AMOUNT, RECHARGE_MIN_AMOUNT, RECHARGE_TEXT, rechargeTitle } from './constants';
import { currencyName, formatAmount, formatMoney } from '../../shared/currency';
import { describeError } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { leaveAppFor } from '../../shared/navigation';
import { Button, buttonClass } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { TextField } from '../../shared/ui/TextField';
import { RequireUser } from '../../shared/session/RequireUser';
import { parseRechargeAmount, parseRechargeQuery } from './recharge';
import { createRecharge } from './walletApi';

/** /recharge?amount&currency: tops a wallet up by card on the payment provider's own page. */
export function RechargePage() {
  const [params] = useSearchParams();
  const query = parseRechargeQuery(params);
  return (
    <div className="mx-auto max-w-md px-4 py-6 sm:py-10">
      {'error' in query ? (
        <>
          <h1 className="text-2xl font-bold tracking-tight">{RECHARGE_TEXT}</h1>
          <ErrorBox lines={[query.error]} className="mt-6" />
          <Link to={PATHS.profile} className={`${buttonClass('secondary')} mt-6`}>
            Back to your wallets
          </Link>
        </>
      ) : (
        <Recharge key={params.toString()} initialText={query.amountText} currency={query.currency} />
      )}
    </div>
  );
}

/** The title follows the amount the user chooses; the link only suggests one. */
function Recharge({ initialText, currency }: { initialText: string; currency: string }) {
  const [text, setText] = useState(initialText);
  const amount = parseRechargeAmount(text);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">{'amount' in amount ? rechargeTitle(formatAmount(amount.amount), currency) : RECHARGE_TEXT}</h1>
      <RequireUser loginMessage="Log in to recharge your wallet.">
        {() => <CardPayment text={text} onText={setText} amount={amount} currency={currency} />}
      </RequireUser>
    </>
  );
}

interface CardPaymentProps {
  text: string;
  onText: (text: string) => void;
  amount: ReturnType<typeof parseRechargeAmount>;
  currency: string;
}

/** The card payment form: Confirm opens the provider's hosted card page, which returns to /afterpayment/stripe. */
function CardPayment({ text, onText, amount, currency }: CardPaymentProps) {
  const fieldId = useId();
  const [error, setError] = useState<unknown>(null);
  // Stays busy once the provider's page is loading: the button must not invite a second checkout.
  const [leaving, setLeaving] = useState(false);
  const confirm = useAsyncAction(async () => {
    if (!('amount' in amount)) return;
    setError(null);
    try {
      const { stripe_checkout_data: checkout } = await createRecharge(amount.amount, currency);
      setLeaving(true);
      leaveAppFor(checkout.url);
    } catch (failure) {
      setError(failure);
    }
  });
  const range = `${formatMoney(RECHARGE_MIN_AMOUNT, currency)} to ${formatMoney(RECHARGE_MAX_AMOUNT, currency)}`;

  return (
    <section aria-labelledby="card-payment-heading" className="mt-6 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-xl">
          💳
        </span>
        <div>
          <h2 id="card-payment-heading" className="font-semibold">
            Card payment
          </h2>
          <p className="text-sm text-slate-500">{currencyName(currency)} wallet</p>
        </div>
      </div>
      <form
        className="mt-6 border-t border-slate-100 pt-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void confirm.run();
        }}
      >
        <TextField
          id={fieldId}
          label={`Amount in ${currencyName(currency)}`}
          inputMode="decimal"
          autoComplete="off"
          className="text-2xl font-bold tabular-nums"
          value={text}
          error={'error' in amount ? amount.error : undefined}
          hint={range}
          onChange={(event) => {
            onText(event.target.value);
            setError(null);
          }}
        />
        <p className="mt-4 text-sm text-slate-500">
          You enter your card details on the payment provider&apos;s secure page. Your wallet is credited as soon as the
          provider confirms the payment.
        </p>
        {error !== null && <ErrorBox lines={describeError(error)} className="mt-4" />}
        <Button type="submit" size="lg" className="mt-6 w-full" disabled={'error' in amount} busy={confirm.busy || leaving}>
          Confirm
        </Button>
      </form>
    </section>
  );
}
