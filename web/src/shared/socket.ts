import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { api } from './api';
import { SOCKET_PATH, SOCKET_RETRY_MS } from './constants';

interface ConnectInfo {
  path: string;
  transports: ManagerOptions['transports'];
  user_id: string | null;
  retry_ms: number;
}

let authKeyProvider: () => string | null = () => null;
let socket: Promise<Socket> | null = null;

/** Where the socket reads the auth key each time it (re)connects. */
export function setRealtimeAuth(provider: () => string | null): void {
  authKeyProvider = provider;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchConnectInfo(): Promise<ConnectInfo> {
  for (;;) {
    try {
      return await api.get<ConnectInfo>('/realtime/connect');
    } catch {
      await wait(SOCKET_RETRY_MS);
    }
  }
}

async function connect(info: ConnectInfo): Promise<Socket> {
  // Loaded on first use: most visits never open a socket.
  const { io } = await import('socket.io-client');
  const retryMs = info.retry_ms || SOCKET_RETRY_MS;
  const options: Partial<ManagerOptions & SocketOptions> = {
    path: info.path || SOCKET_PATH,
    transports: info.transports,
    reconnectionDelay: retryMs,
    reconnectionDelayMax: retryMs,
    // Read at every (re)connect, so a login or logout applies on the next connection.
    auth: (send) => {
      const key = authKeyProvider();
      send(key ? { auth_key: key } : {});
    },
  };
  return io(options);
}

/**
 * The app's one realtime connection, opened on first use: connect info from the
 * server first, then Socket.IO on the same origin. Visitors connect without a key.
 */
export function getSocket(): Promise<Socket> {
  socket ??= fetchConnectInfo().then(connect);
  return socket;
}

/** Reconnects an open socket so that the server sees the current identity. */
export function reconnectSocket(): void {
  void socket?.then((open) => {
    open.disconnect();
    open.connect();
  });
}
