import { NEED_RECHARGE_TEXT } from '../constants';
import { rechargePath } from '../entities/wallet';

/** The spec's red link to the recharge page, in a new tab so the chat or the post form stays open. */
export function NeedRechargeLink({ amount, currency }: { amount: number; currency: string }) {
  return (
    <a
      href={rechargePath(amount, currency)}
      target="_blank"
      rel="noopener"
      // red-700: red-600 falls under 4.5:1 on the light red of the post form's refusal.
      className="text-sm font-semibold text-red-700 underline decoration-red-300 underline-offset-2 hover:text-red-800"
    >
      {NEED_RECHARGE_TEXT}
    </a>
  );
}
