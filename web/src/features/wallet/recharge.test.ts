import { describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../shared/errors';
import { parseRechargeAmount, parseRechargeQuery, parseRechargeStatus, waitForRecharge } from './recharge';
import { rechargePath } from '../../shared/entities/wallet';

const usdWallet = { user_id: 'u1', wallet_for: 'user', wallet_currency: 'USD', wallet_amount: 15 };

describe('rechargePath', () => {
  it('carries the amount and currency to /recharge', () => {
    expect(rechargePath(5, 'USD')).toBe('/recharge?amount=5&currency=USD');
    expect(rechargePath(2.5, 'EUR')).toBe('/recharge?amount=2.5&currency=EUR');
  });
});

describe('parseRechargeQuery', () => {
  it('defaults to 10 USD', () => {
    expect(parseRechargeQuery(new URLSearchParams())).toEqual({ amountText: '10', currency: 'USD' });
    expect(parseRechargeQuery(new URLSearchParams('amount=&currency='))).toEqual({ amountText: '10', currency: 'USD' });
  });

  it('reads what a Need Recharge link carries', () => {
    expect(parseRechargeQuery(new URLSearchParams(rechargePath(2.5, 'EUR').split('?')[1]))).toEqual({ amountText: '2.5', currency: 'EUR' });
    expect(parseRechargeQuery(new URLSearchParams('amount=7&currency=gbp'))).toEqual({ amountText: '7', currency: 'GBP' });
  });

  it('refuses currencies a card cannot recharge', () => {
    for (const currency of ['US$', 'POINTS', 'JPY']) {
      expect(parseRechargeQuery(new URLSearchParams({ currency }))).toHaveProperty('error');
    }
  });
});

describe('parseRechargeAmount', () => {
  it("takes amounts within the server's bounds, with at most 2 decimals", () => {
    expect(parseRechargeAmount('1')).toEqual({ amount: 1 });
    expect(parseRechargeAmount(' 12,50 ')).toEqual({ amount: 12.5 });
    expect(parseRechargeAmount('10000')).toEqual({ amount: 10000 });
  });

  it('refuses the others', () => {
    for (const text of ['abc', '-5', '0', '1.234', '1e3', '']) {
      expect(parseRechargeAmount(text)).toHaveProperty('error');
    }
    expect(parseRechargeAmount('0.99')).toEqual({ error: 'Recharge between 1 and 10000' });
    expect(parseRechargeAmount('10000.01')).toEqual({ error: 'Recharge between 1 and 10000' });
  });
});

describe('parseRechargeStatus', () => {
  const recharge = { _id: 'cs_1', amount: 10, currency: 'USD', state: 'open', created_at: 0 };

  it('reads paid, failed and pending replies', () => {
    expect(parseRechargeStatus({ status: 'paid', message: 'Recharged $ 10', wallet: usdWallet, recharge })).toEqual({ status: 'credited', wallet: usdWallet });
    expect(parseRechargeStatus({ status: 'paid' })).toEqual({ status: 'credited', wallet: null });
    expect(parseRechargeStatus({ status: 'failed', message: 'Your card was declined.', recharge })).toEqual({
      status: 'failed',
      message: 'Your card was declined.',
      order: { amount: 10, currency: 'USD' },
    });
    expect(parseRechargeStatus({ status: 'pending', message: 'Waiting for the payment to be confirmed', recharge })).toEqual({ status: 'pending' });
  });

  it('gives a failure without a message a text, and treats anything unknown as pending', () => {
    expect(parseRechargeStatus({ status: 'failed' })).toMatchObject({ status: 'failed', message: expect.stringMatching(/.+/) });
    expect(parseRechargeStatus({ status: 'refunded' })).toEqual({ status: 'pending' });
    expect(parseRechargeStatus({ status: 'credited' })).toEqual({ status: 'pending' });
    expect(parseRechargeStatus(null)).toEqual({ status: 'pending' });
  });
});

describe('waitForRecharge', () => {
  /** A clock that moves only when the poller sleeps. */
  function fakeClock() {
    let time = 0;
    const sleeps: number[] = [];
    return {
      now: () => time,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        time += ms;
      },
      sleeps,
    };
  }

  it('asks again every 1.5 s while the webhook has not credited the wallet', async () => {
    const clock = fakeClock();
    const replies = [{ status: 'pending' }, { status: 'pending' }, { status: 'paid', wallet: usdWallet }];
    const fetchStatus = vi.fn(async () => replies.shift());
    await expect(waitForRecharge(fetchStatus, clock)).resolves.toEqual({ status: 'credited', wallet: usdWallet });
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    expect(clock.sleeps).toEqual([1500, 1500]);
  });

  it("ends with the provider's message when the payment failed", async () => {
    const outcome = await waitForRecharge(async () => ({ status: 'failed', message: 'Your card was declined.' }), fakeClock());
    expect(outcome).toEqual({ status: 'failed', message: 'Your card was declined.', order: null });
  });

  it('keeps asking through lost replies but stops at an error the server states', async () => {
    const lost: ApiError = { status: 0, errors: 'Cannot reach the server.' };
    const unknown: ApiError = { status: 404, errors: 'No such payment' };
    const answers: Array<() => unknown> = [
      () => {
        throw lost;
      },
      () => {
        throw unknown;
      },
    ];
    const fetchStatus = vi.fn(async () => answers.shift()!());
    await expect(waitForRecharge(fetchStatus, fakeClock())).resolves.toEqual({ status: 'failed', message: 'No such payment' });
    expect(fetchStatus).toHaveBeenCalledTimes(2);
  });

  it('gives up as unconfirmed after about 30 s', async () => {
    const clock = fakeClock();
    const fetchStatus = vi.fn(async () => ({ status: 'pending' }));
    await expect(waitForRecharge(fetchStatus, clock)).resolves.toEqual({ status: 'unconfirmed' });
    expect(clock.now()).toBeLessThanOrEqual(30_000);
    expect(fetchStatus.mock.calls.length).toBeGreaterThanOrEqual(20);
  });

  it('stops asking once aborted', async () => {
    const controller = new AbortController();
    const fetchStatus = vi.fn(async () => {
      controller.abort();
      return { status: 'pending' };
    });
    await expect(waitForRecharge(fetchStatus, { ...fakeClock(), signal: controller.signal })).resolves.toEqual({ status: 'unconfirmed' });
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });
});
