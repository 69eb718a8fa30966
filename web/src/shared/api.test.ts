import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { NETWORK_ERROR_MESSAGE, createApiClient } from './api';

describe('api client', () => {
  it('sends a JSON body with a JSON content type', async () => {
    const calls = mockFetch(() => ({ body: { ok: 1 } }));
    const client = createApiClient();
    await expect(client.post('/api/item', { title: 'Bike' }, { query: { action: 'create' } })).resolves.toEqual({ ok: 1 });
    expect(calls[0]).toMatchObject({ method: 'POST', body: { title: 'Bike' } });
    expect(`${calls[0]?.url.pathname}${calls[0]?.url.search}`).toBe('/api/item?action=create');
    expect(calls[0]?.headers['Content-Type']).toBe('application/json');
  });

  it('puts GET parameters in the query string and sends no body', async () => {
    const calls = mockFetch(() => ({ body: {} }));
    await createApiClient().get('/api/wallet/ledger', { wallet_currency: 'EUR', before: 5, skipped: undefined });
    expect(calls[0]?.url.search).toBe('?wallet_currency=EUR&before=5');
    expect(calls[0]?.body).toBeUndefined();
    expect(calls[0]?.headers['Content-Type']).toBeUndefined();
  });

  it.each(['PUT', 'DELETE'] as const)('sends %s', async (method) => {
    const calls = mockFetch(() => ({ body: {} }));
    const client = createApiClient();
    await (method === 'PUT' ? client.put('/x', { a: 1 }) : client.delete('/x'));
    expect(calls[0]?.method).toBe(method);
  });

  it('rejects a non-ok reply with its parsed body plus the status', async () => {
    mockFetch(() => ({ status: 400, body: { errors: { otp: 'Wrong code, 4 tries left' }, attempts: 1 } }));
    await expect(createApiClient().post('/api/user/login', {})).rejects.toEqual({
      status: 400,
      errors: { otp: 'Wrong code, 4 tries left' },
      attempts: 1,
    });
  });

  it('keeps need_user from a 401 reply', async () => {
    mockFetch(() => ({ status: 401, body: { errors: 'Login needed', need_user: true } }));
    await expect(createApiClient().get('/api/user/profile')).rejects.toMatchObject({ status: 401, need_user: true });
  });

  it('rejects a non-JSON failure with a message naming the status', async () => {
    mockFetch(() => ({ status: 502, text: '<html>Bad gateway</html>' }));
    await expect(createApiClient().get('/user/me')).rejects.toEqual({
      status: 502,
      errors: 'Request failed with status 502',
    });
  });

  it('rejects with status 0 when the server cannot be reached', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(createApiClient().get('/user/me')).rejects.toEqual({ status: 0, errors: NETWORK_ERROR_MESSAGE });
  });

  it('runs request and response interceptors in order, until removed', async () => {
    const calls = mockFetch(() => ({ status: 401, body: { errors: 'no' } }));
    const client = createApiClient();
    const seen: number[] = [];
    const removeFirst = client.interceptors.request.use((request) => {
      request.headers.Authorization = 'Bearer one';
      return request;
    });
    client.interceptors.request.use((request) => ({ ...request, headers: { ...request.headers, 'X-Second': request.headers.Authorization ?? '' } }));
    client.interceptors.response.use((response) => {
      seen.push(response.status);
      return { ...response, ok: true, body: { rescued: true } };
    });

    await expect(client.get('/x')).resolves.toEqual({ rescued: true });
    expect(calls[0]?.headers).toMatchObject({ Authorization: 'Bearer one', 'X-Second': 'Bearer one' });
    expect(seen).toEqual([401]);

    removeFirst();
    await client.get('/x');
    expect(calls[1]?.headers.Authorization).toBeUndefined();
  });
});
