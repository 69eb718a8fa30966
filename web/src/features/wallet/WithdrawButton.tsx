import { useRef } from 'react';
import { WITHDRAW_DONE_TEXT, WITHDRAW_TEXT } from '../../shared/constants';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { leaveAppFor } from '../../shared/navigation';
import { Button } from '../../shared/ui/Button';
import { useUi } from '../../shared/ui/uiContext';
import type { Wallet } from '../../shared/entities/wallet';
import { newRequestId, withdraw } from './walletApi';
import { outcomeUnknown } from './wallets';

/**
 * Withdraws the wallet's balance. Without a connected payout account the server answers
 * with the provider's onboarding page, which the browser goes to.
 */
export function WithdrawButton({ wallet, onWallet }: { wallet: Wallet; onWallet: (wallet: Wallet) => void }) {
  const ui = useUi();
  // Kept while a withdrawal's outcome is unknown, so pressing again cannot pay out twice.
  const unsettledRequestId = useRef<string | null>(null);

  const run = useAsyncAction(async () => {
    const requestId = unsettledRequestId.current ?? newRequestId();
    unsettledRequestId.current = requestId;
    try {
      const reply = await withdraw(wallet, requestId);
      unsettledRequestId.current = null;
      if ('redirect' in reply) {
        leaveAppFor(reply.redirect);
        return;
      }
      onWallet(reply.wallet);
      ui.toast(WITHDRAW_DONE_TEXT);
    } catch (error) {
      if (!outcomeUnknown(error)) unsettledRequestId.current = null;
      ui.showError(error);
    }
  });

  return (
    <Button variant="secondary" size="sm" busy={run.busy} onClick={() => void run.run()}>
      {WITHDRAW_TEXT}
    </Button>
  );
}
