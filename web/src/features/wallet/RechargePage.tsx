import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PATHS, rechargeTitle } from '../../shared/constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { describeError } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { leaveAppFor } from '../../shared/navigation';
import { Button, buttonClass } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { RequireUser } from '../auth/RequireUser';
import { parseRechargeQuery } from './recharge';
import { createRecharge } from './walletApi';

/** /recharge?amount&currency: tops a wallet up by card on the payment provider's own page. */
export function RechargePage() {
  const [params] = useSearchParams();
  const query = parseRechargeQuery(params);
  return (
    <div className="mx-auto max-w-md px-4 py-6 sm:py-10">
      {'error' in query ? (
        <>
          <h1 className="text-2xl font-bold tracking-tight">Recharge</h1>
          <ErrorBox lines={[query.error]} className="mt-6" />
          <Link to={PATHS.profile} className={`${buttonClass('secondary')} mt-6`}>
            Back to your wallets
          </Link>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold tracking-tight">{rechargeTitle(query.amount, query.currency)}</h1>
          <RequireUser loginMessage="Log in to recharge your wallet.">
            {() => <CardPayment amount={query.amount} currency={query.currency} />}
          </RequireUser>
        </>
      )}
    </div>
  );
}

/** The card payment form: Confirm opens the provider's hosted card page, which returns to /afterpayment/stripe. */
function CardPayment({ amount, currency }: { amount: number; currency: string }) {
  const [error, setError] = useState<unknown>(null);
  // Stays busy once the provider's page is loading: the button must not invite a second checkout.
  const [leaving, setLeaving] = useState(false);
  const confirm = useAsyncAction(async () => {
    setError(null);
    try {
      const { stripe_checkout_data: checkout } = await createRecharge(amount, currency);
      setLeaving(true);
      leaveAppFor(checkout.url);
    } catch (failure) {
      setError(failure);
    }
  });

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
      <dl className="mt-6 flex items-baseline justify-between border-y border-slate-100 py-4">
        <dt className="text-sm text-slate-500">Amount</dt>
        <dd className="text-3xl font-bold tracking-tight tabular-nums">{formatMoney(amount, currency)}</dd>
      </dl>
      <p className="mt-4 text-sm text-slate-500">
        You enter your card details on the payment provider&apos;s secure page. Your wallet is credited as soon as the
        provider confirms the payment.
      </p>
      {error !== null && <ErrorBox lines={describeError(error)} className="mt-4" />}
      <Button size="lg" className="mt-6 w-full" busy={confirm.busy || leaving} onClick={() => void confirm.run()}>
        Confirm
      </Button>
    </section>
  );
}
