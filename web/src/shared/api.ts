import type { ApiError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryParams = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  query?: QueryParams;
  body?: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  /** Parsed JSON, or null when the reply had no JSON body. */
  body: unknown;
}

export type RequestInterceptor = (request: ApiRequest) => ApiRequest | Promise<ApiRequest>;
export type ResponseInterceptor = (response: ApiResponse, request: ApiRequest) => ApiResponse | Promise<ApiResponse>;

export interface RequestOptions {
  query?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export const NETWORK_ERROR_MESSAGE = 'Cannot reach the server. Check your connection and try again.';

function buildUrl(baseUrl: string, path: string, query: QueryParams | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  if (!search) return baseUrl + path;
  return `${baseUrl}${path}${path.includes('?') ? '&' : '?'}${search}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function toApiError(response: ApiResponse): ApiError {
  const body = typeof response.body === 'object' && response.body !== null && !Array.isArray(response.body) ? response.body : {};
  const error: ApiError = { ...body, status: response.status, errors: (body as { errors?: ApiError['errors'] }).errors };
  if (error.errors === undefined || error.errors === null) {
    error.errors = `Request failed with status ${response.status}`;
  }
  return error;
}

export interface ApiClientOptions {
  /** Prefix for every path; the edge serves the API on the app's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function createApiClient({ baseUrl = '', fetch: fetchImpl }: ApiClientOptions = {}) {
  const requestInterceptors: RequestInterceptor[] = [];
  const responseInterceptors: ResponseInterceptor[] = [];

  function register<T>(list: T[], interceptor: T): () => void {
    list.push(interceptor);
    return () => {
      const index = list.indexOf(interceptor);
      if (index >= 0) list.splice(index, 1);
    };
  }

  async function request<T>(method: HttpMethod, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    let req: ApiRequest = {
      method,
      path,
      query: options.query,
      body,
      headers: { Accept: 'application/json', ...options.headers },
      signal: options.signal,
    };
    for (const interceptor of requestInterceptors) req = await interceptor(req);

    const hasBody = req.body !== undefined && req.method !== 'GET';
    if (hasBody) req.headers['Content-Type'] = 'application/json';

    let raw: Response;
    try {
      // Resolved at call time so tests (and polyfills) that replace the global are honoured.
      raw = await (fetchImpl ?? globalThis.fetch)(buildUrl(baseUrl, req.path, req.query), {
        method: req.method,
        headers: req.headers,
        body: hasBody ? JSON.stringify(req.body) : undefined,
        signal: req.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      const offline: ApiError = { status: 0, errors: NETWORK_ERROR_MESSAGE };
      throw offline;
    }

    let response: ApiResponse = { status: raw.status, ok: raw.ok, headers: raw.headers, body: await readJson(raw) };
    for (const interceptor of responseInterceptors) response = await interceptor(response, req);

    if (!response.ok) throw toApiError(response);
    return response.body as T;
  }

  return {
    get: <T>(path: string, query?: QueryParams, options?: Omit<RequestOptions, 'query'>) =>
      request<T>('GET', path, undefined, { ...options, query }),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
    delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
    interceptors: {
      request: { use: (interceptor: RequestInterceptor) => register(requestInterceptors, interceptor) },
      response: { use: (interceptor: ResponseInterceptor) => register(responseInterceptors, interceptor) },
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client; features register their interceptors on it at start-up. */
export const api = createApiClient();
