import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FetchCall, type FakeReply } from '../../test/fetchMock';
import { aReview } from '../../test/review';
import type { Wallet } from '../../shared/entities/wallet';
import type { LedgerEntry } from '../wallet';
import { serve } from '../../test/standIns';

/** The socket's listeners, so a test can deliver a `wallet` event. */
const socketListeners = new Map<string, (payload: unknown) => void>();
const fakeSocket = {
  on: (event: string, listener: (payload: unknown) => void) => socketListeners.set(event, listener),
  off: (event: string) => socketListeners.delete(event),
};
const leaveAppFor = vi.fn();
serve({ socket: fakeSocket, leaveAppFor });

const me = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };
/** The profile reply: the wallets, and (issue 32) the rewards and reviews summary, none by default. */
const profileReply = (wallets: Wallet[], more: Record<string, unknown> = {}): FakeReply => ({
  body: { user: me, user_wallets: wallets, rewards: { held: [], paid: [] }, reviews_summary: { count: 0, average: null }, ...more },
});
const wallet = (currency: string, amount: number): Wallet => ({ user_id: 'u1', wallet_for: 'user', wallet_currency: currency, wallet_amount: amount });
const entry = (seq: number, diff: number, changeTo: number): LedgerEntry => ({
  _id: `e${seq}`,
  wallet_id: 'u1:user:POINTS',
  seq,
  ref_type: 'offer',
  ref_id: `m${seq}`,
  title: `Entry ${seq}`,
  created_at: Date.UTC(2025, 0, seq),
  diff,
  change_to: changeTo,
});

async function openProfile(
  replies: (call: FetchCall) => FakeReply | Promise<FakeReply> | undefined,
  path = '/profile',
  earned: unknown[] = [],
) {
  const calls = mockFetch((call) => {
    const path = call.url.pathname;
    if (path === '/user/me') return { body: { user: me, guest_user: {} } };
    if (path === '/api/user/items') return { body: { items: [] } };
    if (path === '/api/finder_fees') return { body: { finder_fees: earned } };
    const reply = replies(call);
    if (reply) return reply;
    if (path === '/api/reviews') return { body: { reviews: [], count: 0, average: null, has_more: false, cursor: null } };
    return profileReply([wallet('POINTS', 101), wallet('USD', 12.5)]);
  });
  const { ProfilePage } = await import('./ProfilePage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter([{ path: '/profile', element: <ProfilePage /> }], { initialEntries: [path] });
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  await screen.findAllByTestId('wallet');
  return calls;
}

const walletCard = (name: RegExp) => screen.getAllByTestId('wallet').find((card) => name.test(card.textContent ?? ''))!;

describe('profile wallets', () => {
  beforeEach(() => {
    vi.resetModules();
    socketListeners.clear();
    leaveAppFor.mockClear();
  });

  it('lists points first with currency symbols; money offers Withdraw and Recharge, points say why not', async () => {
    await openProfile(() => undefined);
    const cards = screen.getAllByTestId('wallet');
    expect(cards.map((card) => card.textContent)).toEqual([expect.stringContaining('🪙 101'), expect.stringContaining('$12.50')]);
    const [points, dollars] = cards as [HTMLElement, HTMLElement];
    expect(within(points).queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(within(points).getByText('You cannot withdraw points')).toBeTruthy();
    expect(within(points).queryByRole('link', { name: /Recharge/ })).toBeNull();
    expect(within(dollars).getByRole('button', { name: 'Withdraw' })).toBeTruthy();
    expect(within(dollars).getByRole('link', { name: 'Recharge US Dollar' }).getAttribute('href')).toBe('/recharge?amount=10&currency=USD');
  });

  it('offers someone holding only points a first card recharge, and nobody who has a card wallet', async () => {
    await openProfile((call) =>
      call.url.pathname === '/api/user/profile' ? profileReply([wallet('POINTS', 101)]) : undefined,
    );
    expect(screen.getByText('To offer rewards in money, add some by card.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Recharge US Dollar' }).getAttribute('href')).toBe('/recharge?amount=10&currency=USD');
    fireEvent.change(screen.getByRole('combobox', { name: 'Recharge currency' }), { target: { value: 'EUR' } });
    expect(screen.getByRole('link', { name: 'Recharge Euro' }).getAttribute('href')).toBe('/recharge?amount=10&currency=EUR');
    cleanup();
    vi.resetModules();
    await openProfile(() => undefined);
    expect(screen.queryByText('To offer rewards in money, add some by card.')).toBeNull();
    expect(screen.getAllByRole('link', { name: /Recharge/ })).toHaveLength(1);
  });

  it('shows the hint banner the payout onboarding returns with', async () => {
    await openProfile(() => undefined, '/profile?can_withdraw=1');
    expect(await screen.findByText('You can withdraw your money now')).toBeTruthy();
  });

  it('does not tell someone holding only points that they can withdraw money', async () => {
    await openProfile(
      (call) => (call.url.pathname === '/api/user/profile' ? profileReply([wallet('POINTS', 101)]) : undefined),
      '/profile?can_withdraw=1',
    );
    expect(screen.queryByText('You can withdraw your money now')).toBeNull();
  });

  it('follows the socket: a changed wallet updates, a new one appears', async () => {
    await openProfile(() => undefined);
    await waitFor(() => expect(socketListeners.has('wallet')).toBe(true));
    act(() => socketListeners.get('wallet')!({ wallet: wallet('POINTS', 96) }));
    act(() => socketListeners.get('wallet')!({ wallet: wallet('EUR', 3) }));
    expect(screen.getAllByTestId('wallet').map((card) => card.textContent)).toEqual([
      expect.stringContaining('🪙 96'),
      expect.stringContaining('€3'),
      expect.stringContaining('$12.50'),
    ]);
  });

  it('opens the Transaction History: signed, coloured changes, balances, older pages on scroll, then EOF', async () => {
    const calls = await openProfile((call) => {
      if (call.url.pathname !== '/api/wallet/ledger') return undefined;
      if (!call.url.searchParams.get('before')) {
        return { body: { ledger_entries: [entry(3, -5, 101), entry(2, 6, 106)], has_more: true, next_before: 2 } };
      }
      return { body: { ledger_entries: [entry(2, 6, 106), entry(1, 100, 100)], has_more: false, next_before: null } };
    });
    // A desktop width: the four columns side by side.
    const phoneMatchMedia = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ ...phoneMatchMedia(query), matches: true }));
    fireEvent.click(within(walletCard(/🪙/)).getByRole('button', { name: /Points/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction History' });
    expect(within(dialog).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Title', 'Date', 'Transaction', 'Balance']);
    await within(dialog).findByText('Entry 3');
    expect(calls.find((call) => call.url.pathname === '/api/wallet/ledger')?.url.searchParams.toString()).toBe(
      'wallet_user_id=u1&wallet_for=user&wallet_currency=POINTS',
    );
    const spent = within(dialog).getByText('-🪙 5');
    expect(spent.className).toContain('text-red-600');
    expect(within(dialog).getByText('+🪙 6').className).toContain('text-emerald-700');
    expect(within(dialog).queryByText('EOF')).toBeNull();

    fireEvent.scroll(within(dialog).getByTestId('ledger-scroll'));
    await within(dialog).findByText('EOF');
    expect(calls.filter((call) => call.url.pathname === '/api/wallet/ledger').at(-1)?.url.searchParams.get('before')).toBe('2');
    // Entry 2 came on both pages and is shown once.
    expect(within(dialog).getAllByTestId('ledger-entry').map((row) => row.firstChild?.textContent)).toEqual(['Entry 3', 'Entry 2', 'Entry 1']);
  });

  it('stacks the columns in twos on a phone', async () => {
    await openProfile((call) =>
      call.url.pathname === '/api/wallet/ledger' ? { body: { ledger_entries: [entry(1, -2.5, 97.5)], has_more: false, next_before: null } } : undefined,
    );
    fireEvent.click(within(walletCard(/🪙/)).getByRole('button', { name: /Points/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction History' });
    expect(within(dialog).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Title / Date', 'Transaction / Balance']);
    const row = await within(dialog).findByTestId('ledger-entry');
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      expect.stringMatching(/^Entry 1Jan 1, 2025/),
      '-🪙 2.50🪙 97.50',
    ]);
  });

  it('shows a ledger that failed to load, and loads it on Try again', async () => {
    let fail = true;
    await openProfile((call) => {
      if (call.url.pathname !== '/api/wallet/ledger') return undefined;
      if (fail) return { status: 500, body: { errors: 'Ledger unavailable' } };
      return { body: { ledger_entries: [entry(1, 100, 100)], has_more: false, next_before: null } };
    });
    fireEvent.click(within(walletCard(/🪙/)).getByRole('button', { name: /Points/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction History' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Ledger unavailable');
    fail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await within(dialog).findByText('Entry 1');
    expect(within(dialog).getByText('EOF')).toBeTruthy();
  });

  /** Withdraw, the amount (all the wallet holds unless `amount` is typed), then the confirmation. */
  async function withdrawFromDollars(amount?: string) {
    fireEvent.click(within(walletCard(/\$/)).getByRole('button', { name: 'Withdraw' }));
    const ask = await screen.findByRole('dialog', { name: 'Withdraw US Dollar' });
    if (amount !== undefined) fireEvent.change(within(ask).getByLabelText('Amount in US Dollar'), { target: { value: amount } });
    fireEvent.click(within(ask).getByRole('button', { name: 'Continue' }));
  }

  it('withdraws: asks how much (all of it to start with, never more) and to confirm before anything moves', async () => {
    const calls = await openProfile((call) =>
      call.url.pathname === '/api/wallet/withdraw' ? { body: { success: true, wallet: wallet('USD', 7.5) } } : undefined,
    );
    fireEvent.click(within(walletCard(/\$/)).getByRole('button', { name: 'Withdraw' }));
    const ask = await screen.findByRole('dialog', { name: 'Withdraw US Dollar' });
    expect((within(ask).getByLabelText('Amount in US Dollar') as HTMLInputElement).value).toBe('12.50');
    fireEvent.change(within(ask).getByLabelText('Amount in US Dollar'), { target: { value: '13' } });
    fireEvent.click(within(ask).getByRole('button', { name: 'Continue' }));
    expect(within(ask).getByRole('alert').textContent).toBe('You can withdraw at most $12.50');
    fireEvent.change(within(ask).getByLabelText('Amount in US Dollar'), { target: { value: '5' } });
    fireEvent.click(within(ask).getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('dialog', { name: 'Withdraw $5 to your payout account?' });
    expect(confirm.textContent).toContain('$7.50 stays in your US Dollar wallet');
    expect(calls.some((call) => call.url.pathname === '/api/wallet/withdraw')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Withdraw $5' }));
    await screen.findByText('Withdrawal successful');
    expect(calls.find((call) => call.url.pathname === '/api/wallet/withdraw')?.body).toMatchObject({
      wallet_for: 'user',
      wallet_currency: 'USD',
      amount: 5,
      request_id: expect.any(String),
    });
    expect(walletCard(/\$/).textContent).toContain('$7.50');
  });

  it('withdraws: goes to the onboarding page the server names', async () => {
    await openProfile((call) =>
      call.url.pathname === '/api/wallet/withdraw' ? { body: { redirect: 'https://connect.example/onboard' } } : undefined,
    );
    await withdrawFromDollars();
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Withdraw $12.50 to your payout account?' })).getByRole('button', { name: 'Withdraw $12.50' }));
    await waitFor(() => expect(leaveAppFor).toHaveBeenCalledWith('https://connect.example/onboard'));
  });

  it('back from the payout set-up, goes on with the withdrawal asked for: its confirmation opens, the amount not typed again (issue 42)', async () => {
    const calls = await openProfile(
      (call) => (call.url.pathname === '/api/wallet/withdraw' ? { body: { success: true, wallet: wallet('USD', 7.5) } } : undefined),
      '/profile?can_withdraw=1&withdraw_currency=USD&withdraw_amount=5',
    );
    expect(await screen.findByText('You can withdraw your money now')).toBeTruthy();
    const confirm = await screen.findByRole('dialog', { name: 'Withdraw $5 to your payout account?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Withdraw $5' }));
    await screen.findByText('Withdrawal successful');
    expect(calls.filter((call) => call.url.pathname === '/api/wallet/withdraw').map((call) => call.body)).toEqual([
      expect.objectContaining({ wallet_currency: 'USD', amount: 5 }),
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an emptied wallet offers no Withdraw, and the banner no longer says there is money to withdraw', async () => {
    await openProfile(
      (call) => (call.url.pathname === '/api/wallet/withdraw' ? { body: { success: true, wallet: wallet('USD', 0) } } : undefined),
      '/profile?can_withdraw=1',
    );
    expect(await screen.findByText('You can withdraw your money now')).toBeTruthy();
    await withdrawFromDollars();
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Withdraw $12.50 to your payout account?' })).getByRole('button', { name: 'Withdraw $12.50' }));
    await screen.findByText('Withdrawal successful');
    expect(within(walletCard(/\$/)).queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(within(walletCard(/\$/)).getByText('Nothing to withdraw')).toBeTruthy();
    expect(screen.queryByText('You can withdraw your money now')).toBeNull();
  });

  it('withdraws: updates the wallet and says so; a retry after a lost reply reuses the request id', async () => {
    let attempt = 0;
    const calls = await openProfile((call) => {
      if (call.url.pathname !== '/api/wallet/withdraw') return undefined;
      attempt += 1;
      if (attempt === 1) return { status: 502, body: { errors: 'Bad gateway' } };
      return { body: { success: true, wallet: wallet('USD', 0) } };
    });
    const confirmAll = async () =>
      fireEvent.click(within(await screen.findByRole('dialog', { name: 'Withdraw $12.50 to your payout account?' })).getByRole('button', { name: 'Withdraw $12.50' }));
    await withdrawFromDollars();
    await confirmAll();
    await screen.findByText('Bad gateway');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await withdrawFromDollars();
    await confirmAll();
    await screen.findByText('Withdrawal successful');
    expect(walletCard(/\$/).textContent).toContain('$0');
    const ids = calls.filter((call) => call.url.pathname === '/api/wallet/withdraw').map((call) => (call.body as { request_id: string }).request_id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it("lists the finder's fees earned from sharing with links to their posts", async () => {
    const fee = { move_id: 'm1', item_id: 'i1', title: 'Walk my dog', route_id: 'root1', amount: 2, currency: 'POINTS', created_at: Date.now() };
    await openProfile(() => undefined, '/profile', [fee]);
    const entry = await screen.findByTestId('earned-fee');
    expect(entry.textContent).toContain('+🪙 2');
    expect(within(entry).getByRole('link', { name: 'Walk my dog' }).getAttribute('href')).toBe('/r/root1');
  });

  it('shows held apart from available, the held part of ledger entries, the rewards paid and held, and reviews with a report', async () => {
    const held = { ...wallet('POINTS', 56), held_amount: 44 };
    const review = aReview();
    const calls = await openProfile((call) => {
      const { pathname } = call.url;
      if (pathname === '/api/user/profile') {
        return profileReply([held], {
          rewards: { held: [{ currency: 'POINTS', amount: 44 }], paid: [{ currency: 'POINTS', amount: 40, count: 1 }] },
          reviews_summary: { count: 1, average: 4 },
        });
      }
      if (pathname === '/api/reviews') return { body: { reviews: [review], count: 1, average: 4, has_more: false, cursor: null } };
      if (pathname === '/api/review') return { body: { success: true } };
      if (pathname === '/api/wallet/ledger') {
        const hold = { ...entry(2, -44, 56), ref_type: 'reward_hold', title: "Reward held for 'Walk my dog'", held_diff: 44, held_to: 44 };
        const paid = { ...entry(3, 0, 56), title: "Offer for 'Walk my dog' to Bram", held_diff: -44, held_to: 0 };
        return { body: { ledger_entries: [paid, hold], has_more: false, next_before: null } };
      }
      return undefined;
    });
    const card = walletCard(/Points/);
    expect(card.textContent).toContain('🪙 56available');
    expect(within(card).getByTestId('wallet-held').textContent).toBe('🪙 44 held for your posts');
    expect(screen.getByTestId('rewards-summary').textContent).toBe('Rewards paid🪙 40 in 1 offerHeld for your posts🪙 44');
    expect(screen.getByTestId('reviews-summary').textContent).toContain('4 from 1 review');

    fireEvent.click(within(card).getByRole('button', { name: /Points/ }));
    const ledger = await screen.findByRole('dialog', { name: 'Transaction History' });
    const rows = await within(ledger).findAllByTestId('ledger-entry');
    // Paid wholly from the hold: only the held part moved.
    expect(rows[0]?.textContent).toContain('held -🪙 44');
    expect(rows[0]?.textContent).not.toContain('🪙 0');
    expect(rows[1]?.textContent).toContain('-🪙 44');
    expect(rows[1]?.textContent).toContain('held +🪙 44');
    fireEvent.click(within(ledger).getByRole('button', { name: 'Close' }));

    const listed = await screen.findByTestId('review');
    expect(listed.textContent).toContain('Paid at once.');
    fireEvent.click(within(listed).getByRole('button', { name: 'Report the review by Bram Asker' }));
    const report = await screen.findByRole('dialog', { name: 'Report this review?' });
    fireEvent.change(within(report).getByLabelText('Why (optional)'), { target: { value: 'Not about the offer' } });
    fireEvent.click(within(report).getByRole('button', { name: 'Report' }));
    await screen.findByText("Reported. The group's moderators will take a look.");
    expect(calls.filter((call) => call.url.pathname === '/api/review').map((call) => call.body)).toEqual([{ review_id: 'rv1', reason: 'Not about the offer' }]);
  });
});
