import { BackendClient, FetchBackendClient, TokenProvider } from './backend/BackendClient';
import { BackendTransport } from './backend/BackendTransport';
import { PollingPolicy } from './core/polling';
import { RandomFill } from './core/uuid';
import { PRODUCTION_URL_POLICY, UrlPolicy } from './core/urlPolicy';
import { utf8Encode } from './core/utf8';

/**
 * Where the SDK keeps the little it keeps across a restart: a pending Chia share attempt (key and body, never a URL)
 * and a pending BB session id, each under keys of the signed-in user's own (`storageKeys(userId)`).
 * `@react-native-async-storage/async-storage`'s default export fits this shape.
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
  /**
   * BB's two registered returns — the universal/app link and the custom-scheme fallback (seed 002) — and, optionally,
   * the landing page's "Return to the app" links on the open host (e.g. `https://open.app.example.com/bb-callback`,
   * docs/CONTRACTS.md §1.1): never a callback, but routed to BB, where the bare link ends the browser phase.
   */
  readonly bb?: { readonly https: string; readonly customScheme: string; readonly landing?: readonly string[] };
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
  /**
   * The signed-in user's stable id (e.g. the app token's `sub`): what the flows keep in `storage` is kept under this
   * user's own keys (`storageKeys(userId)`), so a restore never reads another user's share attempt or BB session
   * (docs/CONTRACTS.md §1.3). Build a new configuration when another user signs in.
   */
  readonly userId: string;
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

/** The two storage keys of one user. */
export interface BatonStorageKeys {
  /** Chia's pending share attempt (key and body, never a URL). */
  readonly chiaPendingAttempt: string;
  /** BB's pending session id (never the hosted URL). */
  readonly bbPendingSession: string;
}

/**
 * The storage keys of `userId` (Swift `BatonUserData`'s per-user folder): `baton.user.u<hex>.chia.pendingAttempt` and
 * `baton.user.u<hex>.bb.pendingSession`, `<hex>` the id's UTF-8 bytes in lowercase hex. Hex has no `.`, so every id
 * gets keys of its own and no id's keys can be another's (`a.b` and `a` stay apart).
 */
export function storageKeys(userId: string): BatonStorageKeys {
  const hex = utf8Encode(userId)
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  const prefix = `baton.user.u${hex}`;
  return { chiaPendingAttempt: `${prefix}.chia.pendingAttempt`, bbPendingSession: `${prefix}.bb.pendingSession` };
}

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
 * Erases what the journeys' web views keep between visits (cookies, DOM storage, caches); Swift's
 * `JourneyWebDataEraser`. `<VerificationJourney>` runs Privue's journey `incognito`, so the package needs none; an
 * app with a native module that clears the Android WebView's cookies and web storage passes it to `signOut`
 * (docs/react-native.md "Sign-out").
 */
export interface JourneyWebDataEraser {
  eraseJourneyWebData(): Promise<void>;
}

/**
 * Keeps two users apart: forgets what the SDK stored for `configuration.userId` (the pending share attempt and the
 * pending BB session) and erases the journeys' web data through `options.journeyWebData`, if given. Stop (unmount)
 * the user's flows first, and call it when the user signs out, before another user signs in. The web data is erased
 * even when the storage fails; the storage's error is thrown after. Another user's keys are never touched.
 */
export async function signOut(
  configuration: Pick<BatonConfiguration, 'storage' | 'userId'>,
  options: { journeyWebData?: JourneyWebDataEraser } = {},
): Promise<void> {
  const keys = storageKeys(configuration.userId);
  let failure: { error: unknown } | null = null;
  for (const key of [keys.chiaPendingAttempt, keys.bbPendingSession]) {
    try {
      await configuration.storage.removeItem(key);
    } catch (error) {
      failure = failure ?? { error };
    }
  }
  await options.journeyWebData?.eraseJourneyWebData();
  if (failure !== null) throw failure.error;
}
