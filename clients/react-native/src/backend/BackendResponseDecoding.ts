import { CatalogCard, decodeCatalogCard } from '../core/catalogCard';
import { ConnectCallbackKind, ConnectSessionStatus } from '../core/connectMachine';

export { ConnectCallbackKind, ConnectSessionStatus };
import { SensitiveUrl } from '../core/retry';
import { journeyUrl, UrlPolicy } from '../core/urlPolicy';
import { BackendError, ProblemCode } from './BackendError';

/** `201` of `POST /v2/handoff-sessions`: the short-lived Chia journey URL, opened once, never stored. */
export interface HandoffSession {
  readonly url: SensitiveUrl;
  /** RFC 3339, or null when absent or unreadable. */
  readonly expiresAt: string | null;
}

/** `200` of `POST /v2/verification-handoffs`: a single-use Privue journey URL, `#ticket` fragment included. */
export interface VerificationHandoff {
  readonly url: SensitiveUrl;
  readonly expiresInSeconds: number | null;
}

/** `GET /v2/verifications/{workflow}`: the authoritative verification state. */
export interface VerificationState {
  readonly verificationId: string;
  /** Privue's status as the backend reports it; `isVerificationSettled` says whether polling stops. */
  readonly status: string;
}

/** The callback a BB session's return URL was registered for. */
export type ConnectCallback = { kind: 'https'; host: string; path: string } | { kind: 'custom-scheme'; scheme: string };

/** `201` of `POST /v2/connect-sessions`. */
export interface ConnectSession {
  readonly sessionId: string;
  /** Opened once, in an authentication session. */
  readonly hostedUrl: SensitiveUrl;
  readonly callbackKind: ConnectCallbackKind;
  /** The callback itself, when the backend named it. */
  readonly callback: ConnectCallback | null;
}

/** `GET /v2/connect-sessions/{sessionId}`: the authoritative BB session state. */
export interface ConnectSessionState {
  readonly sessionId: string;
  readonly status: ConnectSessionStatus;
  readonly connectionId: string | null;
  readonly error: string | null;
}

/** Statuses under which the user may still be in the Privue journey; any other is settled. */
export const VERIFICATION_IN_PROGRESS_STATUSES: readonly string[] = ['created', 'pending', 'opened', 'in_progress'];

/** Whether a Privue status is settled (the app stops polling). */
export function isVerificationSettled(status: string): boolean {
  return !VERIFICATION_IN_PROGRESS_STATUSES.includes(status);
}

type Json = { [key: string]: unknown };

function malformed(): never {
  throw new BackendError({ kind: 'malformed_response' });
}

function object(text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformed();
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : malformed();
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : malformed();
}

function optionalString(value: unknown): string | null {
  return value === undefined || value === null ? null : string(value);
}

function url(value: unknown, policy: UrlPolicy): SensitiveUrl {
  return journeyUrl(string(value), policy) ?? malformed();
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Decoding of the app-facing API's bodies (docs/CONTRACTS.md §2), as BatonClient's `BackendResponseDecoding`: every
 * failure is a `malformed_response` `BackendError`; members a newer backend adds are ignored; URLs pass only under
 * the client's URL policy.
 */
export const BackendResponseDecoding = {
  /** `{"items": [CatalogCard…]}`; a card that does not decode strictly is dropped, never rendered. */
  catalogCards(text: string, policy: UrlPolicy): CatalogCard[] {
    const items = object(text).items;
    if (!Array.isArray(items)) return malformed();
    return items.map((item) => decodeCatalogCard(item, policy)).filter((card): card is CatalogCard => card !== null);
  },

  handoffSession(text: string, policy: UrlPolicy): HandoffSession {
    const body = object(text);
    const expiresAt = typeof body.expiresAt === 'string' && RFC3339.test(body.expiresAt) ? body.expiresAt : null;
    return { url: url(body.url, policy), expiresAt };
  },

  verificationHandoff(text: string, policy: UrlPolicy): VerificationHandoff {
    const body = object(text);
    const seconds = body.expiresInSeconds;
    if (seconds !== undefined && seconds !== null && !(typeof seconds === 'number' && Number.isInteger(seconds))) malformed();
    return { url: url(body.url, policy), expiresInSeconds: typeof seconds === 'number' ? seconds : null };
  },

  verificationState(text: string): VerificationState {
    const body = object(text);
    return { verificationId: string(body.verificationId), status: string(body.status) };
  },

  connectSession(text: string, policy: UrlPolicy): ConnectSession {
    const body = object(text);
    const sessionId = string(body.sessionId);
    if (sessionId === '') malformed();
    const hostedUrl = url(body.hostedUrl, policy);
    const kind = (value: unknown): ConnectCallbackKind =>
      value === 'https' || value === 'custom-scheme' ? value : malformed();
    if (typeof body.callback === 'string') return { sessionId, hostedUrl, callbackKind: kind(body.callback), callback: null };
    const raw = body.callback;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return malformed();
    const callbackObject = raw as Json;
    const callbackKind = kind(callbackObject.kind);
    let callback: ConnectCallback | null = null;
    if (callbackKind === 'https') {
      const host = optionalString(callbackObject.host);
      const path = optionalString(callbackObject.path);
      callback = host !== null && path !== null ? { kind: 'https', host, path } : null;
    } else {
      const scheme = optionalString(callbackObject.scheme);
      callback = scheme !== null ? { kind: 'custom-scheme', scheme } : null;
    }
    return { sessionId, hostedUrl, callbackKind, callback };
  },

  connectSessionState(text: string): ConnectSessionState {
    const body = object(text);
    const status = body.status;
    if (status !== 'pending' && status !== 'ok' && status !== 'error' && status !== 'cancelled' && status !== 'expired') {
      return malformed();
    }
    return {
      sessionId: string(body.sessionId),
      status,
      connectionId: optionalString(body.connectionId),
      error: optionalString(body.error),
    };
  },

  /** The `code` of a problem+json body, when there is one. */
  problemCode(text: string): ProblemCode | null {
    try {
      const body = JSON.parse(text) as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
      const code = (body as Json).code;
      return typeof code === 'string' ? code : null;
    } catch {
      return null;
    }
  },
};
