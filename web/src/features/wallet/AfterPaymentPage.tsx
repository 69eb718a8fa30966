import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/constants';
import { PAYMENT_SUCCESS_TEXT } from './constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { buttonClass } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { Loading } from '../../shared/ui/Loading';
import { RequireUser } from '../../shared/session/RequireUser';
import { rechargePath } from '../../shared/entities/wallet';
import { waitForRecharge, type PaymentOutcome, type RechargeOrder } from './recharge';
import { fetchRechargeStatus } from './walletApi';

const MISSING_SESSION_TEXT = 'This page needs the payment reference (session_id) the payment provider adds to its link.';

/** /afterpayment/stripe?session_id=..: where the payment provider sends the browser back. */
export function AfterPaymentPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  return (
    <div className="mx-auto max-w-md px-4 py-6 sm:py-10">
      <RequireUser loginMessage="Log in to see your payment.">
        {() => (sessionId ? <PaymentResult sessionId={sessionId} /> : <Failed message={MISSING_SESSION_TEXT} />)}
      </RequireUser>
    </div>
  );
}

/** The payment's outcome, null until the server tells it for this `sessionId`. */
function usePaymentOutcome(sessionId: string): PaymentOutcome | null {
  const [answer, setAnswer] = useState<{ sessionId: string; outcome: PaymentOutcome } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    void waitForRecharge(() => fetchRechargeStatus(sessionId, controller.signal), { signal: controller.signal }).then((outcome) => {
      if (!controller.signal.aborted) setAnswer({ sessionId, outcome });
    });
    return () => controller.abort();
  }, [sessionId]);
  return answer?.sessionId === sessionId ? answer.outcome : null;
}

function PaymentResult({ sessionId }: { sessionId: string }) {
  const outcome = usePaymentOutcome(sessionId);
  if (outcome === null) return <Loading title="Confirming your payment.." />;
  if (outcome.status === 'failed') return <Failed message={outcome.message} order={outcome.order} />;
  if (outcome.status === 'unconfirmed') {
    return (
      <Result icon="⏳" title="Payment still being confirmed">
        <p className="mt-2 text-sm text-slate-500">
          The payment provider has not confirmed it yet. Your wallet is credited as soon as it does; you need not pay again.
        </p>
      </Result>
    );
  }
  const { wallet } = outcome;
  return (
    <Result icon="✅" title={PAYMENT_SUCCESS_TEXT}>
      {wallet && (
        <p className="mt-2 text-sm text-slate-500">
          Your {currencyName(wallet.wallet_currency)} wallet now holds{' '}
          <span className="font-semibold text-slate-900 tabular-nums">{formatMoney(wallet.wallet_amount, wallet.wallet_currency)}</span>.
        </p>
      )}
    </Result>
  );
}

function Failed({ message, order }: { message: string; order?: RechargeOrder | null }) {
  return (
    <Result
      icon="⚠️"
      title="Payment failed"
      retry={
        order && (
          <Link to={rechargePath(order.amount, order.currency)} className={`${buttonClass('secondary', 'lg')} w-full`}>
            Try again
          </Link>
        )
      }
    >
      <ErrorBox lines={[message]} className="mt-4 text-left" />
    </Result>
  );
}

function Result({ icon, title, children, retry }: { icon: string; title: string; children: ReactNode; retry?: ReactNode }) {
  return (
    <section className="rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <div className="mx-auto mb-4 flex size-14 items-center justify-center rounded-2xl bg-slate-50 text-2xl" aria-hidden="true">
        {icon}
      </div>
      <h1 className="text-xl font-bold tracking-tight">{title}</h1>
      {children}
      <div className="mt-6 flex flex-col gap-3">
        {retry}
        <Link to={PATHS.profile} className={`${buttonClass('primary', 'lg')} w-full`}>
          Go to your wallets
        </Link>
      </div>
    </section>
  );
}
