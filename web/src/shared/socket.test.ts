import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { SOCKET_RETRY_MS } from './constants';

const fakeSocket = { connect: vi.fn(), disconnect: vi.fn() };
const io = vi.fn((..._args: unknown[]) => fakeSocket);
vi.mock('socket.io-client', () => ({ io }));

const connectInfo = { path: '/socket.io', transports: ['websocket', 'polling'], user_id: null, retry_ms: 5000 };

/** The auth payload the socket would send on its next connection. */
function authPayload(): unknown {
  const options = io.mock.calls[0]?.[0] as { auth: (send: (payload: unknown) => void) => void };
  let payload: unknown;
  options.auth((value) => (payload = value));
  return payload;
}

describe('realtime socket', () => {
  beforeEach(() => {
    vi.resetModules();
    io.mockClear();
    fakeSocket.connect.mockClear();
    fakeSocket.disconnect.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('asks for connect info once, then connects on the same origin with the reconnect delay', async () => {
    const calls = mockFetch(() => ({ body: connectInfo }));
    const { getSocket } = await import('./socket');
    const [first, second] = await Promise.all([getSocket(), getSocket()]);
    expect(first).toBe(second);
    expect(calls.map((call) => call.url.pathname)).toEqual(['/realtime/connect']);
    expect(io).toHaveBeenCalledOnce();
    expect(io.mock.calls[0]?.[0]).toMatchObject({
      path: '/socket.io',
      transports: ['websocket', 'polling'],
      reconnectionDelay: 5000,
      reconnectionDelayMax: 5000,
    });
  });

  it('sends the current auth key, or nothing for visitors', async () => {
    mockFetch(() => ({ body: connectInfo }));
    const { getSocket, setRealtimeAuth } = await import('./socket');
    let key: string | null = null;
    setRealtimeAuth(() => key);
    await getSocket();
    expect(authPayload()).toEqual({});
    key = 'k1';
    expect(authPayload()).toEqual({ auth_key: 'k1' });
  });

  it('retries the connect info after the retry delay', async () => {
    vi.useFakeTimers();
    let failures = 1;
    const calls = mockFetch(() => (failures-- > 0 ? { status: 503, text: '' } : { body: connectInfo }));
    const { getSocket } = await import('./socket');
    const socket = getSocket();
    await vi.advanceTimersByTimeAsync(SOCKET_RETRY_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await socket;
    expect(calls).toHaveLength(2);
    expect(io).toHaveBeenCalledOnce();
  });

  it('reconnects an open socket when asked', async () => {
    mockFetch(() => ({ body: connectInfo }));
    const { getSocket, reconnectSocket } = await import('./socket');
    reconnectSocket();
    await getSocket();
    reconnectSocket();
    await vi.waitFor(() => expect(fakeSocket.connect).toHaveBeenCalledOnce());
    expect(fakeSocket.disconnect).toHaveBeenCalledOnce();
  });
});
