/** The finder's fee pool an offer of `amount` pays at `percent`, rounded down to the cent as the server does. */
export function finderFeePool(amount: number, percent: number): number {
  return Math.floor((Math.round(amount * 100) * percent) / 100) / 100;
}

/** The pool a post offers its sharers, or null when it offers none. */
export function postFinderFee(item: { offer_amount?: number | null; finder_fee_percent?: number }): number | null {
  const percent = item.finder_fee_percent ?? 0;
  if (item.offer_amount == null || percent <= 0) return null;
  const pool = finderFeePool(item.offer_amount, percent);
  return pool > 0 ? pool : null;
}
