import { CatalogCard } from '../core/catalogCard';
import { utf8Encode } from '../core/utf8';
import { attemptBodyJson, PendingAttempt } from '../core/retry';
import { acceptsAsSecure, PRODUCTION_URL_POLICY, UrlPolicy } from '../core/urlPolicy';
import { BackendError } from './BackendError';
import {
  BackendResponseDecoding,
  ConnectCallbackKind,
  ConnectSession,
  ConnectSessionState,
  HandoffSession,
  VerificationHandoff,
  VerificationState,
} from './BackendResponseDecoding';
import { BackendRequest, BackendTransport, fetchTransport, TransportError } from './BackendTransport';

/**
 * The partner backend's app-facing API (docs/CONTRACTS.md §2), as the flow controllers use it (Swift
 * `BackendClient`). Every method rejects with a `BackendError` only.
 */
export interface BackendClient {
  /** `GET /v2/catalog`: the user's catalog cards (hidden items are absent). */
  catalog(): Promise<CatalogCard[]>;
  /** `POST /v2/handoff-sessions` with `Idempotency-Key: attempt.key` and exactly `attemptBodyJson(attempt)`. */
  createHandoffSession(attempt: PendingAttempt): Promise<HandoffSession>;
  /** `POST /v2/verification-handoffs` `{"workflow": …}`: a fresh single-use handoff, created now. */
  createVerificationHandoff(workflow: string): Promise<VerificationHandoff>;
  /** `GET /v2/verifications/{workflow}`: the authoritative verification state. */
  verification(workflow: string): Promise<VerificationState>;
  /** `POST /v2/connect-sessions` `{"callback": "https" | "custom-scheme"}`. */
  createConnectSession(callback: ConnectCallbackKind): Promise<ConnectSession>;
  /** `GET /v2/connect-sessions/{sessionId}`: the authoritative session state. */
  connectSession(sessionId: string): Promise<ConnectSessionState>;
}

/** The app token for the signed-in user, or null when signed out. */
export type TokenProvider = () => Promise<string | null> | string | null;

/** A configuration value that cannot be used; `code` says which rule it breaks (never the value itself). */
export class BatonConfigurationError extends Error {
  constructor(readonly code: string) {
    super(`Baton configuration cannot be used: ${code}`);
    this.name = 'BatonConfigurationError';
  }
}

/** Options of `FetchBackendClient`. */
export interface FetchBackendClientOptions {
  /** The partner backend's origin, e.g. `https://partner.example`; loopback `http` only under the development policy. */
  readonly baseUrl: string;
  readonly tokenProvider: TokenProvider;
  /** Default: `fetchTransport()` over the global `fetch`. */
  readonly transport?: BackendTransport;
  /** Which URLs pass where `https` is required, in the base URL and in answers. Default: production. */
  readonly urlPolicy?: UrlPolicy;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 3986 unreserved characters stay; every other UTF-8 byte is percent-encoded: an id is always one segment. */
export function encodePathSegment(segment: string): string {
  let out = '';
  for (const byte of utf8Encode(segment)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(char) ? char : `%${(byte + 0x100).toString(16).slice(1).toUpperCase()}`;
  }
  return out;
}

/**
 * The production `BackendClient` over a `BackendTransport` (by default `fetch`), as Swift's
 * `URLSessionBackendClient`: `Authorization: Bearer <token>` on every call, `Idempotency-Key` on the share; a non-2xx
 * answer becomes a `BackendError` with the status, the problem+json `code` and `Retry-After`.
 */
export class FetchBackendClient implements BackendClient {
  readonly baseUrl: string;
  private readonly tokenProvider: TokenProvider;
  private readonly transport: BackendTransport;
  private readonly urlPolicy: UrlPolicy;

  constructor(options: FetchBackendClientOptions) {
    this.urlPolicy = options.urlPolicy ?? PRODUCTION_URL_POLICY;
    if (!acceptsAsSecure(options.baseUrl, this.urlPolicy)) {
      throw new BatonConfigurationError(this.urlPolicy.allowsLoopbackHttp ? 'backend_url_not_https_or_loopback' : 'backend_url_not_https');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokenProvider = options.tokenProvider;
    this.transport = options.transport ?? fetchTransport();
  }

  async catalog(): Promise<CatalogCard[]> {
    return BackendResponseDecoding.catalogCards(await this.send('GET', ['v2', 'catalog']), this.urlPolicy);
  }

  async createHandoffSession(attempt: PendingAttempt): Promise<HandoffSession> {
    const text = await this.send('POST', ['v2', 'handoff-sessions'], attemptBodyJson(attempt), { 'Idempotency-Key': attempt.key });
    return BackendResponseDecoding.handoffSession(text, this.urlPolicy);
  }

  async createVerificationHandoff(workflow: string): Promise<VerificationHandoff> {
    const text = await this.send('POST', ['v2', 'verification-handoffs'], JSON.stringify({ workflow }));
    return BackendResponseDecoding.verificationHandoff(text, this.urlPolicy);
  }

  async verification(workflow: string): Promise<VerificationState> {
    return BackendResponseDecoding.verificationState(await this.send('GET', ['v2', 'verifications', workflow]));
  }

  async createConnectSession(callback: ConnectCallbackKind): Promise<ConnectSession> {
    const text = await this.send('POST', ['v2', 'connect-sessions'], JSON.stringify({ callback }));
    return BackendResponseDecoding.connectSession(text, this.urlPolicy);
  }

  async connectSession(sessionId: string): Promise<ConnectSessionState> {
    return BackendResponseDecoding.connectSessionState(await this.send('GET', ['v2', 'connect-sessions', sessionId]));
  }

  /** The request for `method` on `path`, without sending it. */
  request(method: 'GET' | 'POST', path: string[], token: string, body: string | null = null, extra: Record<string, string> = {}): BackendRequest {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json, application/problem+json',
      'Cache-Control': 'no-cache',
    };
    if (body !== null) headers['Content-Type'] = 'application/json';
    Object.assign(headers, extra);
    return { method, url: this.baseUrl + path.map((segment) => `/${encodePathSegment(segment)}`).join(''), headers, body };
  }

  private async send(method: 'GET' | 'POST', path: string[], body: string | null = null, extra: Record<string, string> = {}): Promise<string> {
    let token: string | null;
    try {
      token = await this.tokenProvider();
    } catch {
      token = null;
    }
    if (token === null || token === '') throw new BackendError({ kind: 'not_authenticated' });
    let response;
    try {
      response = await this.transport(this.request(method, path, token, body, extra));
    } catch (error) {
      throw new BackendError({ kind: 'transport', failure: error instanceof TransportError ? error.failure : 'connect' });
    }
    if (response.status < 200 || response.status > 299) {
      throw new BackendError({
        kind: 'http',
        status: response.status,
        code: BackendResponseDecoding.problemCode(response.body),
        retryAfter: response.header('Retry-After'),
      });
    }
    return response.body;
  }
}
