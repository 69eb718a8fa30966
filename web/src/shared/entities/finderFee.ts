import { FINDER_FEE_EXAMPLE, FINDER_FEE_MAX_SHARERS } from '../constants';
import { formatMoney } from '../currency';

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

/**
 * What a reader's own link of a post earns them when someone new comes through it and is paid
 * the post's reward (`offer_amount`): computed by the server with the rule that pays
 * (/api/r/{route_id}'s share_earnings), never here, so the promise is what is paid.
 */
export interface ShareEarnings {
  amount: number;
  currency: string;
  offer_amount: number;
}

/** The post page's promise to a reader who may share it. */
export function shareEarningsText({ amount, currency, offer_amount: reward }: ShareEarnings): string {
  return `Share your link: if the helper comes through it and is paid the ${formatMoney(reward, currency)} reward, you earn ${formatMoney(amount, currency)}.`;
}

/** Stand-ins for the people of the worked example, in the order they shared. */
const EXAMPLE_NAMES = ['Ann', 'Ben', 'Cleo', 'Dev', 'Eva'] as const;

const nameAt = (index: number) => EXAMPLE_NAMES[index] ?? `Sharer ${index + 1}`;

/** "Ann", "Ann, then Ben", "Ann, Ben, then Cleo". */
function inOrder(names: readonly string[]): string {
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')}, then ${names.at(-1)}`;
}

/** The rule in words; FINDER_FEE_EXAMPLE shows it paid. */
export const FINDER_FEE_RULE_TEXT =
  `The poster pays the finder’s fee on top of the reward. The sharer whose link brought the helper gets half of it, ` +
  `the one who shared before them half of what is left, and so on; the first sharer takes all that is left. ` +
  `At most the ${FINDER_FEE_MAX_SHARERS} sharers nearest the helper are paid.`;

/** A reward, its finder's fee and what each sharer of a few chains gets (FINDER_FEE_EXAMPLE's shape). */
export interface FinderFeeExample {
  offer: number;
  currency: string;
  percent: number;
  pool: number;
  /** Per chain, each sharer's part, first sharer first. */
  chains: ReadonlyArray<readonly number[]>;
}

export interface FinderFeeExampleText {
  /** The reward, the percent and the fee it makes. */
  intro: string;
  /** Per chain: who shared, in order, and what each one gets, nearest the helper first. */
  chains: string[];
}

/** The server's worked example (FINDER_FEE_EXAMPLE, computed by the rule that pays) in sentences. */
export function finderFeeExample(example: FinderFeeExample = FINDER_FEE_EXAMPLE): FinderFeeExampleText {
  const money = (amount: number) => formatMoney(amount, example.currency);
  return {
    intro: `A reward of ${money(example.offer)} with a ${example.percent}% finder’s fee: the poster pays ${money(example.pool)} on top.`,
    chains: example.chains.map((parts) => {
      const names = parts.map((_, index) => nameAt(index));
      const paid = parts
        .map((amount, index) => ({ name: names[index], amount }))
        .reverse()
        .map(({ name, amount }, index) => (index === 0 ? `${name} gets ${money(amount)}` : `${name} ${money(amount)}`));
      return `Shared by ${inOrder(names)}: ${paid.join(', ')}.`;
    }),
  };
}
