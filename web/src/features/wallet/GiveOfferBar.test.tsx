import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply, type FetchCall } from '../../test/fetchMock';
import type { ItemChatFacts } from './offer';

const itemChat: ItemChatFacts = { _id: 'r_i1_u2', data: { item_id: 'i1', owner_id: 'u1', user_id: 'u2' } };
const item = (offer: { offer_amount?: number | null; offer_currency?: string | null }) => ({
  _id: 'i1',
  group_id: 'g1',
  user_id: 'u1',
  route_id: 'rt1',
  created_at: 0,
  updated_at: 0,
  sort_order: 0,
  need_user_to_view: false,
  title: 'Walk my dog',
  ...offer,
});

type Reply = FakeReply | Promise<FakeReply>;

async function renderBar(offer: Parameters<typeof item>[0], answerOffer: (call: FetchCall) => Reply, meId = 'u1', session: typeof itemChat = itemChat) {
  const calls = mockFetch((call) => {
    if (call.url.pathname === '/api/item') return { body: { item: item(offer), group: {} } };
    if (call.url.pathname === '/get_by_ids') return { body: { users: { u2: { _id: 'u2', name: 'Bram', image: '' } } } };
    if (call.url.pathname === '/api/giveoffer') return answerOffer(call);
    return { status: 404, body: { errors: 'unexpected call' } };
  });
  const { GiveOfferBar } = await import('./GiveOfferBar');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  render(
    <MemoryRouter>
      <UiProvider>
        <GiveOfferBar session={session} meId={meId} />
      </UiProvider>
    </MemoryRouter>,
  );
  return calls;
}

const offers = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === '/api/giveoffer');
const confirmDialog = () => screen.findByRole('dialog', { name: 'Confirm Again to proceed with offer.' });

describe('Give offer', () => {
  beforeEach(() => vi.resetModules());

  it("shows the post's amount, asks to confirm, sends it, says so and shows it was given", async () => {
    let answer: (reply: FakeReply) => void = () => undefined;
    const calls = await renderBar({ offer_amount: 2.5, offer_currency: 'USD' }, () => new Promise((resolve) => (answer = resolve)));
    const button = await screen.findByRole('button', { name: 'Give offer $2.50' });
    // Whom it pays, with the way to their profile (issue 42).
    expect((await screen.findByRole('link', { name: 'Bram' })).getAttribute('href')).toBe('/u/u2');
    fireEvent.click(button);
    const dialog = await confirmDialog();
    expect(dialog.textContent).toContain('$2.50');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(offers(calls)).toHaveLength(1));
    expect(offers(calls)[0]?.body).toEqual({ cs_id: 'r_i1_u2', offer_amount: 2.5, request_id: expect.any(String) });
    // Colours cycle while the request runs; a second press does nothing meanwhile.
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.className).toContain('animate-offer-pending');
    fireEvent.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();

    const lastOffer = { move_id: 'm1', amount: 2.5, currency: 'USD', at: Date.now() };
    await act(async () => answer({ body: { success: true, move_id: 'm1', wallet: {}, last_offer: lastOffer } }));
    expect(await screen.findByText('Offer Successfully given')).toBeTruthy();
    expect(button.getAttribute('aria-busy')).toBeNull();

    // Paying again is a choice of its own, confirmed before the usual confirmation.
    expect(screen.getByTestId('offer-given').textContent).toContain('$2.50');
    fireEvent.click(screen.getByRole('button', { name: 'Give another offer $2.50' }));
    const again = await screen.findByRole('dialog', { name: 'Give another offer?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Give another offer $2.50' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Give another offer?' })).getByRole('button', { name: 'Give another offer' }));
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(offers(calls)).toHaveLength(2));
    const [first, second] = offers(calls).map((call) => (call.body as { request_id: string }).request_id);
    expect(second).not.toBe(first);
  });

  it('shows an offer the chat already had (after a reload) and refuses an amount below the minimum', async () => {
    const stored = { ...itemChat, data: { ...itemChat.data, last_offer: { move_id: 'm0', amount: 10, currency: 'POINTS', at: Date.now() } } };
    const calls = await renderBar({ offer_amount: null, offer_currency: null }, () => ({ body: { success: true } }), 'u1', stored);
    expect((await screen.findByTestId('offer-given')).textContent).toContain('10');
    fireEvent.click(screen.getByRole('button', { name: 'Give another offer' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Give another offer?' })).getByRole('button', { name: 'Give another offer' }));
    const prompt = await screen.findByRole('dialog', { name: 'Enter offer amount' });
    const input = within(prompt).getByRole('textbox') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '0.2' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'OK' }));
    expect(within(prompt).getByRole('alert').textContent).toContain('The smallest offer is 0.5');
    expect(screen.queryByRole('dialog', { name: 'Confirm Again to proceed with offer.' })).toBeNull();
    expect(offers(calls)).toHaveLength(0);
  });

  it("prompts 'Enter offer amount' with 10 when the post names no amount", async () => {
    const calls = await renderBar({ offer_amount: null, offer_currency: null }, () => ({ body: { success: true } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Give offer' }));
    const prompt = await screen.findByRole('dialog', { name: 'Enter offer amount' });
    const input = within(prompt).getByRole('textbox') as HTMLInputElement;
    expect(input.value).toBe('10');
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'OK' }));
    expect(within(prompt).getByRole('alert')).toBeTruthy();
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'OK' }));
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Offer Successfully given');
    expect(offers(calls)[0]?.body).toMatchObject({ offer_amount: 12 });
  });

  it('cancel sends nothing', async () => {
    const calls = await renderBar({ offer_amount: 5, offer_currency: 'POINTS' }, () => ({ body: { success: true } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Give offer 🪙 5' }));
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(offers(calls)).toHaveLength(0);
  });

  it("links a short card-currency balance to the recharge page in a new tab", async () => {
    await renderBar({ offer_amount: 25, offer_currency: 'USD' }, () => ({
      status: 402,
      body: { errors: { need_stripe_recharge: { amount: 25, currency: 'USD' } } },
    }));
    fireEvent.click(await screen.findByRole('button', { name: 'Give offer $25' }));
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    const link = await screen.findByRole('link', { name: 'Need Recharge' });
    expect(link.getAttribute('href')).toBe('/recharge?amount=25&currency=USD');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.className).toContain('text-red-700');
  });

  it("shows a short points balance as the server's message in a dialog, not titled as a recharge (points are not bought)", async () => {
    await renderBar({ offer_amount: 500, offer_currency: 'POINTS' }, () => ({
      status: 402,
      body: { errors: { need_recharge: 'Not enough points: you have 101.' } },
    }));
    fireEvent.click(await screen.findByRole('button', { name: 'Give offer 🪙 500' }));
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Not enough points' });
    expect(dialog.textContent).toContain('Not enough points: you have 101.');
    expect(screen.queryByRole('link', { name: 'Need Recharge' })).toBeNull();
  });

  it('retries after a lost reply with the same request id', async () => {
    let attempt = 0;
    const calls = await renderBar({ offer_amount: 5, offer_currency: 'POINTS' }, () => {
      attempt += 1;
      return attempt === 1 ? { status: 503, body: { errors: 'Try again shortly' } } : { body: { success: true } };
    });
    const button = await screen.findByRole('button', { name: 'Give offer 🪙 5' });
    fireEvent.click(button);
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Try again shortly');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    fireEvent.click(button);
    fireEvent.click(within(await confirmDialog()).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Offer Successfully given');
    const [first, second] = offers(calls).map((call) => (call.body as { request_id: string }).request_id);
    expect(second).toBe(first);
  });

  it('is not offered to the other participant', async () => {
    await renderBar({ offer_amount: 5, offer_currency: 'POINTS' }, () => ({ body: {} }), 'u2');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: /Give offer/ })).toBeNull();
  });
});
