import { TransportFailure } from './BackendError';

/** One request to the partner backend. `headers` carries the bearer token: a transport must never log it. */
export interface BackendRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** One response: status, a case-insensitive header lookup, and the body text. */
export interface BackendResponse {
  readonly status: number;
  header(name: string): string | null;
  readonly body: string;
}

/**
 * The seam every backend call goes through (Swift `BackendTransport`): one request in, one response out. Rejects with
 * a `TransportError` when no HTTP response arrived.
 */
export type BackendTransport = (request: BackendRequest) => Promise<BackendResponse>;

/** No HTTP response arrived. */
export class TransportError extends Error {
  constructor(readonly failure: TransportFailure) {
    super(`transport failed (${failure})`);
    this.name = 'TransportError';
  }
}

/** The subset of WHATWG `fetch` the default transport uses (React Native's and node's `fetch` both fit). */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; cache?: 'no-store'; credentials?: 'omit'; signal?: unknown },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

/**
 * The default transport over `fetch`: no cache, no cookies, `timeoutMillis` through `AbortController` when the
 * platform has one. `fetch` is looked up when a request is sent, not when the module loads.
 */
export function fetchTransport(options: { fetch?: FetchFunction; timeoutMillis?: number } = {}): BackendTransport {
  const timeoutMillis = options.timeoutMillis ?? 30000;
  return async (request) => {
    const fetchFn = options.fetch ?? (globalThis as { fetch?: FetchFunction }).fetch;
    if (typeof fetchFn !== 'function') throw new TransportError('connect');
    const Controller = (globalThis as { AbortController?: new () => { signal: unknown; abort(): void } }).AbortController;
    const controller = Controller === undefined ? null : new Controller();
    let timedOut = false;
    const timer = controller === null ? null : setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMillis);
    try {
      const init: Parameters<FetchFunction>[1] = { method: request.method, headers: { ...request.headers }, cache: 'no-store', credentials: 'omit' };
      if (request.body !== null) init.body = request.body;
      if (controller !== null) init.signal = controller.signal;
      const response = await fetchFn(request.url, init);
      const body = await response.text();
      return { status: response.status, header: (name) => response.headers.get(name), body };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      throw new TransportError(timedOut ? 'timeout' : 'connect');
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  };
}
