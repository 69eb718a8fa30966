import { useCallback, useState } from 'react';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import type { Wallet } from '../../shared/entities/wallet';
import { upsertWallet } from './wallets';

/**
 * The user's wallets as last loaded, kept current by the socket's `wallet` event (sent to
 * the owner after every change) and by replies the page itself receives (`apply`).
 */
export function useLiveWallets(loaded: readonly Wallet[] | null) {
  const [state, setState] = useState<{ loaded: readonly Wallet[] | null; wallets: Wallet[] }>({ loaded, wallets: [...(loaded ?? [])] });
  // A fresh load replaces what live updates built on the previous one.
  let wallets = state.wallets;
  if (state.loaded !== loaded) {
    wallets = [...(loaded ?? [])];
    setState({ loaded, wallets });
  }

  const apply = useCallback((changed: Wallet) => {
    setState((current) => ({ ...current, wallets: upsertWallet(current.wallets, changed) }));
  }, []);

  useSocketEvent<{ wallet?: Wallet }>('wallet', (event) => {
    if (event?.wallet) apply(event.wallet);
  }, loaded !== null);

  return { wallets, apply };
}
