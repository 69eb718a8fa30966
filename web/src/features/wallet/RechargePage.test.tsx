import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply, type FetchCall } from '../../test/fetchMock';
import { serve } from '../../test/standIns';

const leaveAppFor = vi.fn();
serve({ leaveAppFor });

const me = { _id: 'u1', name: 'Ada', image: '', phone_number: null, email_id: 'ada@x.test', data: { notifications_unseen_count: 0 }, created_at: 0 };

async function renderAt(path: string, answer: (call: FetchCall) => FakeReply, signedIn = true) {
  const calls = mockFetch((call) =>
    call.url.pathname === '/user/me' ? { body: { user: signedIn ? me : null, guest_user: { _id: 'g', name: 'Guest', is_guest: true } } } : answer(call),
  );
  const { RechargePage } = await import('./RechargePage');
  const { AfterPaymentPage } = await import('./AfterPaymentPage');
  const { UiProvider } = await import('../../shared/ui/UiProvider');
  const router = createMemoryRouter(
    [
      { path: '/recharge', element: <RechargePage /> },
      { path: '/afterpayment/stripe', element: <AfterPaymentPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <UiProvider>
      <RouterProvider router={router} />
    </UiProvider>,
  );
  return calls;
}

describe('recharge page', () => {
  beforeEach(() => {
    vi.resetModules();
    leaveAppFor.mockClear();
  });

  it("is titled with the spec's wording and defaults to 10 USD", async () => {
    await renderAt('/recharge', () => ({ body: {} }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reacharging 10 USD' })).toBeTruthy();
    expect((await screen.findByLabelText('Amount in US Dollar')).getAttribute('value')).toBe('10');
  });

  it('lets the user choose how much to recharge', async () => {
    const calls = await renderAt('/recharge?amount=2.5&currency=USD', (call) =>
      call.url.pathname === '/api/recharge' ? { body: { stripe_checkout_data: { id: 'cs_1', url: 'https://pay.example/cs_1' } } } : { body: {} },
    );
    fireEvent.change(await screen.findByLabelText('Amount in US Dollar'), { target: { value: '25,50' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Reacharging 25.50 USD' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(leaveAppFor).toHaveBeenCalledWith('https://pay.example/cs_1'));
    expect(calls.find((call) => call.url.pathname === '/api/recharge')?.body).toEqual({ amount: 25.5, currency: 'USD' });
  });

  it("refuses amounts outside the server's bounds without asking it", async () => {
    const calls = await renderAt('/recharge', () => ({ body: {} }));
    const field = await screen.findByLabelText('Amount in US Dollar');
    for (const value of ['0.5', '10001']) {
      fireEvent.change(field, { target: { value } });
      expect(screen.getByRole('alert').textContent).toBe('Recharge between 1 and 10000');
      expect(screen.getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(true);
      fireEvent.submit(field);
    }
    expect(calls.some((call) => call.url.pathname === '/api/recharge')).toBe(false);
  });

  it("Confirm creates the checkout and goes to the provider's card page", async () => {
    const calls = await renderAt('/recharge?amount=2.5&currency=eur', (call) =>
      call.url.pathname === '/api/recharge' ? { body: { stripe_checkout_data: { id: 'cs_1', url: 'https://pay.example/cs_1' } } } : { body: {} },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Reacharging 2.50 EUR' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(leaveAppFor).toHaveBeenCalledWith('https://pay.example/cs_1'));
    expect(calls.find((call) => call.url.pathname === '/api/recharge')?.body).toEqual({ amount: 2.5, currency: 'EUR' });
    // Still busy while the provider's page loads.
    expect(screen.getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows why card payments cannot be made', async () => {
    await renderAt('/recharge', () => ({ status: 503, body: { errors: 'Card payments are not available' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Card payments are not available');
    expect(leaveAppFor).not.toHaveBeenCalled();
  });

  it('shows what is wrong with the amount a link carries, and lets the user fix it', async () => {
    await renderAt('/recharge?amount=abc', () => ({ body: {} }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/number/);
    expect(screen.getByRole('heading', { level: 1, name: 'Recharge' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Amount in US Dollar'), { target: { value: '5' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(false);
  });

  it('refuses a currency a card cannot recharge', async () => {
    await renderAt('/recharge?currency=POINTS', () => ({ body: {} }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/currency/);
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('asks visitors to log in', async () => {
    await renderAt('/recharge', () => ({ body: {} }), false);
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });
});

describe('after payment page', () => {
  beforeEach(() => vi.resetModules());

  it('shows success and the credited wallet', async () => {
    const calls = await renderAt('/afterpayment/stripe?session_id=cs_1', () => ({
      body: { status: 'paid', wallet: { user_id: 'u1', wallet_for: 'user', wallet_currency: 'USD', wallet_amount: 10 } },
    }));
    expect(await screen.findByRole('heading', { name: 'Payment successful' })).toBeTruthy();
    expect(screen.getByText('$10')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your wallets' }).getAttribute('href')).toBe('/profile');
    expect(calls.find((call) => call.url.pathname === '/api/recharge/status')?.url.searchParams.get('session_id')).toBe('cs_1');
  });

  it("shows the provider's message when the payment failed", async () => {
    await renderAt('/afterpayment/stripe?session_id=cs_1', () => ({
      body: { status: 'failed', message: 'Your card was declined.', recharge: { amount: 7, currency: 'EUR' } },
    }));
    expect(await screen.findByRole('heading', { name: 'Payment failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Your card was declined.');
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/recharge?amount=7&currency=EUR');
  });

  it('says what is missing without a session_id', async () => {
    await renderAt('/afterpayment/stripe', () => ({ body: {} }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/session_id/);
  });
});
