import { BankConnectController, AuthSessionAdapter } from './BankConnectController';
import { BackendClient } from './backend/BackendClient';
import { BackendError } from './backend/BackendError';
import { ConnectCallbackKind } from './backend/BackendResponseDecoding';
import { ChiaEffects, ChiaHandoffController } from './ChiaHandoffController';
import { BatonConfiguration, createBackendClient, storageKeys, systemScheduler } from './configuration';
import { ChiaHandoffMachine, ChiaScreen } from './core/chiaMachine';
import { ConnectScreen } from './core/connectMachine';
import { PendingAttempt, SensitiveUrl } from './core/retry';
import { ConnectReturnParser, GenericReturnParser, ReturnUrlRegistrationError, VerificationReturnParser } from './core/returnLinks';
import { BatonLinkRouter } from './core/linkRouter';
import { uuidV4 } from './core/uuid';
import { VerificationScreen } from './core/verificationMachine';
import { VerificationController, VerificationPresenter } from './VerificationController';

/** What the Chia flow needs from the app besides the configuration. */
export interface ChiaHandoffOptions {
  /** Opens the URL once in the OS external browser (default in the hook: `openExternal`, i.e. `Linking.openURL`). */
  openExternal(url: SensitiveUrl): Promise<void> | void;
  /** The backend no longer accepts the token: sign the user in again. */
  onSignInRequired?: () => void;
  /** The generic return arrived: route to marketplace home. */
  onMarketplaceHome?: () => void;
  /** A backend client to use instead of the configuration's (tests: a recording one). */
  backend?: BackendClient;
}

function readAttempt(text: string | null): PendingAttempt | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const fields = ['key', 'catalogItemId', 'disclosureVersion', 'affirmedAt'];
    return fields.every((f) => typeof value[f] === 'string') ? (value as unknown as PendingAttempt) : null;
  } catch {
    return null;
  }
}

/** The Chia effects of `configuration`: catalog and share over the backend client, the attempt in storage. */
export function createChiaEffects(configuration: BatonConfiguration, options: ChiaHandoffOptions): ChiaEffects {
  const backend = options.backend ?? createBackendClient(configuration);
  const scheduler = configuration.scheduler ?? systemScheduler;
  const storage = configuration.storage;
  const key = storageKeys(configuration.userId).chiaPendingAttempt;
  return {
    fetchCard: async (id) => (await backend.catalog()).find((card) => card.id === id) ?? null,
    sendShare: async (attempt) => {
      try {
        return { ok: true, url: (await backend.createHandoffSession(attempt)).url };
      } catch (error) {
        return {
          ok: false,
          outcome: error instanceof BackendError ? error.shareOutcome : { kind: 'transport', failure: 'connect' },
        };
      }
    },
    saveAttempt: (attempt) =>
      storage.setItem(
        key,
        JSON.stringify({ affirmedAt: attempt.affirmedAt, catalogItemId: attempt.catalogItemId, disclosureVersion: attempt.disclosureVersion, key: attempt.key }),
      ),
    discardAttempt: () => storage.removeItem(key),
    openExternal: (url) => options.openExternal(url),
    requestSignIn: () => options.onSignInRequired?.(),
    routeToMarketplaceHome: () => options.onMarketplaceHome?.(),
    now: () => scheduler.now(),
    newKey: () => uuidV4(configuration.random),
    schedule: (atMillis, fire) => scheduler.schedule(atMillis, fire),
  };
}

/**
 * The Chia flow for one catalog card, without React: `useChiaHandoff` wraps it. `start()` resends a share attempt
 * kept from an earlier run of the app (and only then asks the backend anything; otherwise nothing is requested before
 * the tap).
 */
export function createChiaHandoff(
  configuration: BatonConfiguration,
  catalogItemId: string,
  options: ChiaHandoffOptions,
  onScreen: (screen: ChiaScreen) => void,
): { controller: ChiaHandoffController; start(): Promise<void> } {
  const host = configuration.returnUrls.chiaGenericReturnHost;
  const machine = new ChiaHandoffMachine(catalogItemId, host === undefined || host === null ? null : new GenericReturnParser(host));
  const controller = new ChiaHandoffController(machine, createChiaEffects(configuration, options), onScreen);
  return {
    controller,
    async start() {
      let kept: PendingAttempt | null = null;
      try {
        kept = readAttempt(await configuration.storage.getItem(storageKeys(configuration.userId).chiaPendingAttempt));
      } catch {
        controller.onFailure({ flow: 'chia', code: 'storage_failed' });
      }
      if (kept !== null && kept.catalogItemId === catalogItemId) controller.restore(kept);
    },
  };
}

/** The Privue flow for `workflow`, without React: `useVerification` wraps it. */
export function createVerification(
  configuration: BatonConfiguration,
  workflow: string,
  presenter: VerificationPresenter,
  onScreen: (screen: VerificationScreen) => void,
  backend: BackendClient = createBackendClient(configuration),
): VerificationController {
  const registered = configuration.returnUrls.privue ?? [];
  if (registered.length === 0) throw new ReturnUrlRegistrationError('none_registered');
  return new VerificationController(
    workflow,
    new VerificationReturnParser([...registered]),
    backend,
    presenter,
    configuration.scheduler ?? systemScheduler,
    onScreen,
    configuration.polling,
  );
}

/** The callback a device catches for BB (seed 002): the universal/app link when it can, else the custom scheme. */
export function chooseConnectCallback(
  bb: { https: string; customScheme: string },
  deviceSupportsHttpsCallback: boolean,
): { kind: ConnectCallbackKind; url: string } {
  return deviceSupportsHttpsCallback ? { kind: 'https', url: bb.https } : { kind: 'custom-scheme', url: bb.customScheme };
}

/**
 * Whether this device's auth session can catch an https callback (seed 002): iOS 17.4 and later
 * (`ASWebAuthenticationSession.Callback.https`); Android, where Custom Tabs hand a verified app link to the app.
 * Below iOS 17.4 the custom scheme is the fallback.
 */
export function supportsHttpsCallback(platform: { OS: string; Version: string | number }): boolean {
  if (platform.OS === 'android') return true;
  if (platform.OS !== 'ios') return false;
  const [major, minor] = String(platform.Version).split('.').map((part) => Number(part));
  return Number.isFinite(major) && (major > 17 || (major === 17 && (Number.isFinite(minor) ? minor : 0) >= 4));
}

/**
 * Whether BB's https callback can be caught here: the platform must support it (`supportsHttpsCallback`) and, on iOS,
 * the adapter must open ASWebAuthenticationSession with `.https(host:path:)` (`catchesHttpsCallbackOnIOS`); otherwise
 * the custom scheme is the callback (seed 002's fallback).
 */
export function deviceCatchesHttpsCallback(
  platform: { OS: string; Version: string | number },
  adapter: AuthSessionAdapter & { catchesHttpsCallbackOnIOS?: boolean },
): boolean {
  if (!supportsHttpsCallback(platform)) return false;
  return platform.OS !== 'ios' || adapter.catchesHttpsCallbackOnIOS === true;
}

/** The BB flow, without React: `useBankConnect` wraps it. */
export function createBankConnect(
  configuration: BatonConfiguration,
  adapter: AuthSessionAdapter,
  deviceSupportsHttpsCallback: boolean,
  onScreen: (screen: ConnectScreen) => void,
  backend: BackendClient = createBackendClient(configuration),
): BankConnectController {
  const bb = configuration.returnUrls.bb;
  if (bb === undefined) throw new ReturnUrlRegistrationError('none_registered');
  return new BankConnectController(
    chooseConnectCallback(bb, deviceSupportsHttpsCallback),
    new ConnectReturnParser([bb.https, bb.customScheme, ...(bb.landing ?? [])]),
    backend,
    adapter,
    { storage: configuration.storage, key: storageKeys(configuration.userId).bbPendingSession },
    configuration.scheduler ?? systemScheduler,
    onScreen,
    configuration.polling,
  );
}

/**
 * The `BatonLinkRouter` of `configuration`'s return URLs: which flow (`bb`, `privue`, `chia`) a delivered link goes
 * to, for an app that receives links in one place (the hooks listen to `Linking` themselves).
 */
export function createLinkRouter(configuration: Pick<BatonConfiguration, 'returnUrls'>): BatonLinkRouter {
  const urls = configuration.returnUrls;
  return new BatonLinkRouter({
    bankConnect: urls.bb === undefined ? [] : [urls.bb.https, urls.bb.customScheme, ...(urls.bb.landing ?? [])],
    verification: [...(urls.privue ?? [])],
    genericReturnHost: urls.chiaGenericReturnHost ?? null,
  });
}
