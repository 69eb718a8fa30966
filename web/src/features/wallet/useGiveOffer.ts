import { useCallback, useRef, useState } from 'react';
import { NOT_ENOUGH_POINTS_TEXT, OFFER_GIVEN_TEXT } from './constants';
import { useUi } from '../../shared/ui/uiContext';
import { initialOfferState, offerReducer, type OfferEvent, type OfferState } from './offer';
import { type GivenOffer, giveOffer, newRequestId } from './walletApi';

/**
 * Runs the Give offer flow of one chat (`csId`) with offerReducer and sends the confirmed
 * offer. A short balance in points opens a dialog with the server's message (which says how
 * points come: they are not bought); other failures show in the error popup; a card
 * currency's shortfall is left in `state.failure` for the 'Need Recharge' link.
 */
export function useGiveOffer(csId: string) {
  const ui = useUi();
  const [state, setState] = useState<OfferState>(initialOfferState);
  // The offer this screen just gave, until the chat's own copy (a `session` event) catches up.
  const [given, setGiven] = useState<GivenOffer | null>(null);
  // The reducer runs here, not in setState, so that confirm() knows the attempt it must send.
  const current = useRef(state);

  const dispatch = useCallback((event: OfferEvent): OfferState => {
    const next = offerReducer(current.current, event);
    current.current = next;
    setState(next);
    return next;
  }, []);

  const press = useCallback((itemAmount: number | null) => dispatch({ type: 'press', itemAmount }), [dispatch]);
  const enter = useCallback((amount: number) => dispatch({ type: 'enter', amount }), [dispatch]);
  const cancel = useCallback(() => dispatch({ type: 'cancel' }), [dispatch]);

  const confirm = useCallback(() => {
    const before = current.current;
    const next = dispatch({ type: 'confirm', freshRequestId: newRequestId() });
    if (next === before || !next.attempt) return;
    const { amount, requestId } = next.attempt;
    giveOffer({ cs_id: csId, offer_amount: amount, request_id: requestId }).then(
      (reply) => {
        setGiven(reply.last_offer ?? null);
        dispatch({ type: 'given' });
        ui.toast(OFFER_GIVEN_TEXT);
      },
      (error: unknown) => {
        const { failure } = dispatch({ type: 'failed', error });
        if (failure?.kind === 'need_recharge') ui.showError(failure.message, NOT_ENOUGH_POINTS_TEXT);
        else if (failure?.kind === 'error') ui.showError(failure.error);
      },
    );
  }, [csId, dispatch, ui]);

  return { state, given, press, enter, cancel, confirm };
}
