/** What the HTTP layer observed for one `POST /v2/handoff-sessions`. */
export type ShareOutcome =
  | { kind: 'response'; status: number; retryAfter: string | null }
  | { kind: 'transport'; failure: TransportFailure };

/** How a request failed without a response (the server may or may not have acted). */
export type TransportFailure = 'connect' | 'timeout' | 'reset' | 'tls';

/**
 * What the app does after a share request (seed 000; docs/CONTRACTS.md §2 app rule): network
 * errors, 408, 429 and 5xx retry with the exact body and key; 401 signs in again and retries with the same key and
 * body; any other 4xx discards both and refetches the projection; 2xx is done; anything else retries.
 */
export type RetryDecision =
  | { decision: 'retry'; retryAfterSeconds: number | null }
  | { decision: 'sign_in_and_retry' }
  | { decision: 'refetch_projection' }
  | { decision: 'done' };

export function classifyShareOutcome(outcome: ShareOutcome, nowMillis: number): RetryDecision {
  if (outcome.kind === 'transport') return { decision: 'retry', retryAfterSeconds: null };
  const status = outcome.status;
  if (status >= 200 && status <= 299) return { decision: 'done' };
  if (status === 401) return { decision: 'sign_in_and_retry' };
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
    return {
      decision: 'retry',
      retryAfterSeconds: outcome.retryAfter === null ? null : retryAfterSeconds(outcome.retryAfter, nowMillis),
    };
  }
  if (status >= 400 && status <= 499) return { decision: 'refetch_projection' };
  return { decision: 'retry', retryAfterSeconds: null };
}

const DAYS = ['Mon,', 'Tue,', 'Wed,', 'Thu,', 'Fri,', 'Sat,', 'Sun,'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 9110 `Retry-After`: delay-seconds, or an IMF-fixdate against `nowMillis` (past is 0); null when malformed. */
export function retryAfterSeconds(value: string, nowMillis: number): number | null {
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (/^[0-9]+$/.test(trimmed)) return trimmed.length > 9 ? 2147483647 : Number(trimmed);
  const parts = trimmed.split(' ');
  if (parts.length !== 6 || !DAYS.includes(parts[0]) || parts[5] !== 'GMT' || parts[1].length !== 2 || parts[3].length !== 4) {
    return null;
  }
  const month = MONTHS.indexOf(parts[2]);
  const time = parts[4].split(':');
  if (month < 0 || !/^[0-9]{2}$/.test(parts[1]) || !/^[0-9]{4}$/.test(parts[3]) || time.length !== 3) return null;
  if (!time.every((t) => /^[0-9]{2}$/.test(t))) return null;
  const [day, year] = [Number(parts[1]), Number(parts[3])];
  const [hour, minute, second] = time.map(Number);
  if (hour >= 24 || minute >= 60 || second >= 61) return null;
  const date = Date.UTC(year, month, day, hour, minute, second);
  if (new Date(date).getUTCDate() !== day) return null;
  return Math.max(0, Math.ceil((date - nowMillis) / 1000));
}

/** A canonical UUIDv4 `Idempotency-Key`. */
export function isIdempotencyKey(text: string): boolean {
  return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89abAB][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$/.test(text);
}

/**
 * The exact share body and its key: persisted before the first send and kept, byte for byte, until a success or a
 * definitive rejection. Never the journey URL.
 */
export interface PendingAttempt {
  readonly key: string;
  readonly catalogItemId: string;
  readonly disclosureVersion: string;
  readonly affirmedAt: string;
}

/** The JSON sent: keys sorted, slashes unescaped, so the same attempt always encodes the same way. */
export function attemptBodyJson(attempt: PendingAttempt): string {
  return JSON.stringify({
    affirmed: true,
    affirmedAt: attempt.affirmedAt,
    catalogItemId: attempt.catalogItemId,
    disclosureVersion: attempt.disclosureVersion,
  });
}

/** RFC 3339 in UTC, whole seconds (`2026-01-01T00:00:05Z`). */
export function rfc3339(millis: number): string {
  return new Date(millis - (((millis % 1000) + 1000) % 1000)).toISOString().replace('.000Z', 'Z');
}

/**
 * A journey URL (Chia `phs_…`, BB `hostedUrl`, Privue handoff): short-lived and sensitive. `toString` and
 * `toJSON` are redacted so it cannot reach a log, a crash breadcrumb or storage by accident; only the one call that
 * opens it uses `reveal()`.
 */
export class SensitiveUrl {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '<journey URL redacted>';
  }

  toJSON(): string {
    return '<journey URL redacted>';
  }
}
