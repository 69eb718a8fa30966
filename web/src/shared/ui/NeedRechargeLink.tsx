import { NEED_RECHARGE_TEXT } from '../constants';
import { rechargePath } from '../entities/wallet';

/** The spec's red link to the recharge page, in a new tab so the chat or the post form stays open. */
export function NeedRechargeLink({ amount, currency }: { amount: number; currency: string }) {
  return (
    <a
      href={rechargePath(amount, currency)}
      target="_blank"
      rel="noopener"
      className="text-sm font-semibold text-red-600 underline decoration-red-300 underline-offset-2 hover:text-red-700"
    >
      {NEED_RECHARGE_TEXT}
    </a>
  );
}
