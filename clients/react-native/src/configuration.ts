import { BackendClient, FetchBackendClient, TokenProvider } from './backend/BackendClient';
import { BackendTransport } from './backend/BackendTransport';
import { PollingPolicy } from './core/polling';
import { RandomFill } from './core/uuid';
import { PRODUCTION_URL_POLICY, UrlPolicy } from './core/urlPolicy';

/**
 * Where the SDK keeps the little it keeps across a restart: a pending Chia share attempt (key and body, never a URL)
 * and a pending BB session id. `@react-native-async-storage/async-storage`'s default export fits this shape.
 */
export interface BatonStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** The return URLs registered with each provider (docs/CONTRACTS.md §1). */
export interface BatonReturnUrls {
  /** Chia's generic return host (seed 000), e.g. `partner.example`; null when none is registered. */
  readonly chiaGenericReturnHost?: string | null;
  /** Privue's registered https return URLs, e.g. `['https://app.example.com/privue-return']`. */
  readonly privue?: readonly string[];
  /** BB's two registered returns: the universal/app link and the custom-scheme fallback (seed 002). */
  readonly bb?: { readonly https: string; readonly customScheme: string };
}

/** Clock and timers; tests inject fakes. */
export interface BatonScheduler {
  now(): number;
  /** Calls `fire` at `atMillis` (or now, when that has passed); answers a function that cancels it. */
  schedule(atMillis: number, fire: () => void): () => void;
}

/** The one configuration value every flow is built from (Swift initialisers + `URLPolicy`, Kotlin `BatonConfiguration`). */
export interface BatonConfiguration {
  /** The partner backend's origin (`https://…`; loopback `http` only with `urlPolicy: DEVELOPMENT_URL_POLICY`). */
  readonly backendUrl: string;
  /** The app token for the signed-in user (`Authorization: Bearer`), or null when signed out. */
  readonly tokenProvider: TokenProvider;
  readonly storage: BatonStorage;
  readonly returnUrls: BatonReturnUrls;
  /** Default production (https only). `DEVELOPMENT_URL_POLICY` only against `baton serve --sandbox`. */
  readonly urlPolicy?: UrlPolicy;
  /** How long and how often a flow asks the backend for the outcome (default 2 s interval, 60 s). */
  readonly polling?: PollingPolicy;
  /** The backend transport (default: `fetch`). */
  readonly transport?: BackendTransport;
  /** Default: `Date.now` and `setTimeout`. */
  readonly scheduler?: BatonScheduler;
  /** Random bytes for `Idempotency-Key`s (default: `crypto.getRandomValues` when installed, else a fallback). */
  readonly random?: RandomFill;
}

/** The storage keys the SDK uses (all under `baton.`). */
export const STORAGE_KEYS = {
  chiaPendingAttempt: 'baton.chia.pendingAttempt',
  bbPendingSession: 'baton.bb.pendingSession',
} as const;

/**
 * `Date.now` and `setTimeout`, looked up at call time. A timer that fires before `Date.now()` reaches its time (timers
 * run on a monotonic clock, `Date.now` on the wall clock) is re-armed for the rest: a tick delivered early is ignored
 * by the machines, and nothing would schedule another.
 */
export const systemScheduler: BatonScheduler = {
  now: () => Date.now(),
  schedule: (atMillis, fire) => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const arm = (): void => {
      timer = setTimeout(() => {
        if (cancelled) return;
        if (Date.now() < atMillis) arm();
        else fire();
      }, Math.max(0, atMillis - Date.now()));
    };
    arm();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  },
};

/** The `BackendClient` of `configuration`: `FetchBackendClient` over its transport and URL policy. */
export function createBackendClient(configuration: BatonConfiguration): BackendClient {
  return new FetchBackendClient({
    baseUrl: configuration.backendUrl,
    tokenProvider: configuration.tokenProvider,
    transport: configuration.transport,
    urlPolicy: configuration.urlPolicy ?? PRODUCTION_URL_POLICY,
  });
}

/**
 * Keeps two users apart: forgets everything the SDK stored (the pending share attempt and BB session). Call it when
 * the user signs out, before another user signs in.
 */
export async function signOut(configuration: Pick<BatonConfiguration, 'storage'>): Promise<void> {
  await configuration.storage.removeItem(STORAGE_KEYS.chiaPendingAttempt);
  await configuration.storage.removeItem(STORAGE_KEYS.bbPendingSession);
}
