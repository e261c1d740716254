import { RequestFailure } from '../core/polling';
import { classifyShareOutcome, ShareOutcome, TransportFailure } from '../core/retry';

// How a request failed before any HTTP response arrived: defined beside ShareOutcome (core/retry), exported from here.
export { TransportFailure };

/** The problem+json `code`s the backend emits (docs/CONTRACTS.md §2); a code from a newer backend keeps its text. */
export const PROBLEM_CODES = [
  'idempotency_key_invalid', 'invalid_request', 'invalid_target', 'invalid_framing', 'invalid_header_field',
  'not_local', 'unauthorized', 'not_found', 'unknown_workflow', 'method_not_allowed', 'projection_changed',
  'handoff_expired', 'payload_too_large', 'uri_too_long', 'request_header_fields_too_large', 'idempotency_key_reused',
  'handoff_rejected', 'callback_unavailable', 'request_rejected', 'provider_rate_limited', 'rate_limited',
  'internal_error', 'unsupported_transfer_coding', 'provider_unavailable', 'provider_rejected', 'provider_timeout',
  'request_in_progress', 'catalog_unavailable', 'service_unavailable',
] as const;

/** A known problem code, or (`string`) one from a newer backend. */
export type ProblemCode = (typeof PROBLEM_CODES)[number] | (string & { readonly __newer?: never });

/** What kind of failure a `BackendError` is. */
export type BackendErrorKind =
  /** No HTTP response arrived. */
  | { kind: 'transport'; failure: TransportFailure }
  /** A non-2xx response, with the problem+json `code` when the body had one and the raw `Retry-After`. */
  | { kind: 'http'; status: number; code: ProblemCode | null; retryAfter: string | null }
  /** A 2xx response whose body did not decode as the contract says. */
  | { kind: 'malformed_response' }
  /** The token provider had no token (signed out). */
  | { kind: 'not_authenticated' };

/**
 * A failed call to the partner backend (Swift `BackendError`): its kind, status and problem code, never the request.
 * The message names only those; it never contains a URL, a token, a body or a header value.
 */
export class BackendError extends Error {
  readonly detail: BackendErrorKind;

  constructor(detail: BackendErrorKind) {
    super(describe(detail));
    this.name = 'BackendError';
    this.detail = detail;
  }

  /** The HTTP status, when a response arrived. */
  get status(): number | null {
    return this.detail.kind === 'http' ? this.detail.status : null;
  }

  /** The problem+json `code`, when the response had one. */
  get problemCode(): ProblemCode | null {
    return this.detail.kind === 'http' ? this.detail.code : null;
  }

  /** The share-request outcome this failure amounts to, for `classifyShareOutcome`. */
  get shareOutcome(): ShareOutcome {
    switch (this.detail.kind) {
      case 'transport':
        return { kind: 'transport', failure: this.detail.failure };
      case 'http':
        return { kind: 'response', status: this.detail.status, retryAfter: this.detail.retryAfter };
      // A 2xx that did not decode may still have created the session: retrying unchanged is the safe reading.
      case 'malformed_response':
        return { kind: 'transport', failure: 'reset' };
      case 'not_authenticated':
        return { kind: 'response', status: 401, retryAfter: null };
    }
  }

  /** The coarse category the flow machines use: retryable (network, 408, 429, 5xx) or definitive (the rest). */
  get failure(): RequestFailure {
    // Polling cannot sign in: for the connect and verification flows a 401 ends the run like a rejection.
    return classifyShareOutcome(this.shareOutcome, 0).decision === 'retry' ? 'retryable' : 'definitive';
  }

  toJSON(): BackendErrorKind {
    return this.detail;
  }
}

function describe(detail: BackendErrorKind): string {
  switch (detail.kind) {
    case 'transport':
      return `backend unreachable (${detail.failure})`;
    case 'http':
      return `backend answered ${detail.status}${detail.code === null ? '' : ` (${detail.code})`}`;
    case 'malformed_response':
      return 'backend response did not match the contract';
    case 'not_authenticated':
      return 'no app token available';
  }
}
