import { vi } from 'vitest';

export interface FetchCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** A raw body, for replies that are not JSON. */
  text?: string;
}

/**
 * Replaces global fetch with `handler`, which answers each call; returns the calls seen.
 * The handler may return a promise to hold a reply back.
 */
export function mockFetch(handler: (call: FetchCall) => FakeReply | Promise<FakeReply>): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const call: FetchCall = {
        url: new URL(input, 'http://agora.test'),
        method: init.method ?? 'GET',
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const reply = await handler(call);
      const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      return new Response(text, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}
