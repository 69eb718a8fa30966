import { useRef, useState } from 'react';
import { WITHDRAW_DONE_TEXT, WITHDRAW_TEXT } from './constants';
import { currencyName, formatMoney } from '../../shared/currency';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { leaveAppFor } from '../../shared/navigation';
import { Button } from '../../shared/ui/Button';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { useUi } from '../../shared/ui/uiContext';
import type { Wallet } from '../../shared/entities/wallet';
import { AmountPrompt } from './AmountPrompt';
import { newRequestId, withdraw } from './walletApi';
import { leftAfter, wholeBalanceText, withdrawalRefusal } from './withdraw';
import { outcomeUnknown } from './wallets';

type Step = { step: 'idle' } | { step: 'asking' } | { step: 'confirming'; amount: number };

interface WithdrawButtonProps {
  wallet: Wallet;
  onWallet: (wallet: Wallet) => void;
  /** A withdrawal the payout set-up interrupted: it opens at once, at its confirmation (or the amount, when none came back). */
  resume?: { amount: number | null };
}

/**
 * Withdraw: asks how much (all the wallet holds unless changed), asks to confirm, then pays
 * it out. Without a connected payout account the server answers with the provider's
 * onboarding page instead, which the browser goes to (nothing moves); it comes back with the
 * amount, which is asked to confirm again (`resume`), not to be typed again.
 */
export function WithdrawButton({ wallet, onWallet, resume }: WithdrawButtonProps) {
  const ui = useUi();
  const [state, setState] = useState<Step>(() => (resume ? (resume.amount === null ? { step: 'asking' } : { step: 'confirming', amount: resume.amount }) : { step: 'idle' }));
  // Kept while a withdrawal's outcome is unknown, so sending the same amount again cannot pay out twice.
  const unsettled = useRef<{ requestId: string; amount: number } | null>(null);
  const money = (amount: number) => formatMoney(amount, wallet.wallet_currency);

  const run = useAsyncAction(async (amount: number) => {
    const requestId = unsettled.current?.amount === amount ? unsettled.current.requestId : newRequestId();
    unsettled.current = { requestId, amount };
    try {
      const reply = await withdraw(wallet, amount, requestId);
      unsettled.current = null;
      if ('redirect' in reply) {
        leaveAppFor(reply.redirect);
        return;
      }
      onWallet(reply.wallet);
      ui.toast(WITHDRAW_DONE_TEXT);
    } catch (error) {
      if (!outcomeUnknown(error)) unsettled.current = null;
      ui.showError(error);
    }
  });

  const payoutsReady = wallet.data?.stripe_connected_account_charge_enabled === true;
  return (
    <>
      <Button variant="secondary" size="sm" busy={run.busy} onClick={() => setState({ step: 'asking' })}>
        {WITHDRAW_TEXT}
      </Button>
      {state.step === 'asking' && (
        <AmountPrompt
          title={`${WITHDRAW_TEXT} ${currencyName(wallet.wallet_currency)}`}
          currency={wallet.wallet_currency}
          initial={wholeBalanceText(wallet)}
          hint={`You can withdraw up to ${money(wallet.wallet_amount)}.`}
          submitLabel="Continue"
          refusal={(amount) => withdrawalRefusal(amount, wallet)}
          onEnter={(amount) => setState({ step: 'confirming', amount })}
          onCancel={() => setState({ step: 'idle' })}
        />
      )}
      {state.step === 'confirming' && (
        <ConfirmDialog
          title={`${WITHDRAW_TEXT} ${money(state.amount)} to your payout account?`}
          confirmLabel={`${WITHDRAW_TEXT} ${money(state.amount)}`}
          onConfirm={() => {
            setState({ step: 'idle' });
            void run.run(state.amount);
          }}
          onCancel={() => setState({ step: 'idle' })}
        >
          <p>
            Stripe pays it to the bank account you gave them; {money(leftAfter(wallet, state.amount))} stays in your{' '}
            {currencyName(wallet.wallet_currency)} wallet.
          </p>
          {!payoutsReady && <p className="mt-2">If Stripe does not know where to pay you yet, you set that up with them first (once), then come back here to confirm this withdrawal.</p>}
        </ConfirmDialog>
      )}
    </>
  );
}
