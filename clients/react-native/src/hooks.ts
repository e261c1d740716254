/**
 * The three flows as React hooks (MOBILE-SDK: `useChiaHandoff`, `useVerification`, `useBankConnect`), each a thin
 * wrapper over its controller: the decisions live in the pure machines, the effects in the controllers, so the whole
 * flow runs and is tested without React. Each hook forwards the app's foreground/background (`AppState`) and the
 * links the OS delivers (`Linking`) that `BatonLinkRouter` routes to its flow, and stops its flow (timers, late
 * answers) when its component unmounts. The configuration must keep its identity across renders (a module constant or
 * `useMemo`): a new one is a new flow.
 */
import * as React from 'react';
import { AppState, Linking, Platform } from 'react-native';
import { AuthSessionAdapter, BankConnectController } from './BankConnectController';
import { ChiaHandoffController } from './ChiaHandoffController';
import { BatonConfiguration } from './configuration';
import { ChiaScreen } from './core/chiaMachine';
import { ConnectScreen } from './core/connectMachine';
import { SensitiveUrl } from './core/retry';
import { VerificationScreen } from './core/verificationMachine';
import { authSessionVerificationPresenter } from './authSessionAdapters';
import { BatonLinkRouter, LinkFlow, LinkRoute } from './core/linkRouter';
import { ChiaHandoffOptions, createBankConnect, createChiaHandoff, createLinkRouter, createVerification, deviceCatchesHttpsCallback } from './flows';
import { openExternal } from './Handoff';
import { BatonFlowFailure, BrowserCompletion } from './presentation';
import { VerificationController } from './VerificationController';

/**
 * Hands `onUrl` each link the OS delivers while mounted (`Linking` URL events) that `createLinkRouter(configuration)`
 * routes to `flow` — a BB or Privue return or landing link, or Chia's generic return — and no other: a Privue return
 * on Chia's generic return host is Privue's, never marketplace home.
 */
function useDeliveredLinks(configuration: BatonConfiguration, flow: LinkFlow, onUrl: (url: string) => void): void {
  const router = React.useMemo(() => createLinkRouter(configuration), [configuration]);
  React.useEffect(() => {
    const subscription = Linking.addEventListener('url', (event) => {
      if (router.route(event.url).flow === flow) onUrl(event.url);
    });
    return () => subscription.remove();
  }, [router, flow, onUrl]);
}

/**
 * The app's one place for the links the OS delivers (MOBILE-SDK: `BatonLinkRouter`): the URL that launched the app
 * (`Linking.getInitialURL()`) and each `Linking` URL event while mounted, routed by `createLinkRouter(configuration)`,
 * reach `onLink(route, url)`: `bb`/`privue` (`landing`: the landing page's bare link, no query) → show that flow's
 * screen, whose hook takes the link itself; `chia` → marketplace home; `flow: null` → the app's own link. The flow
 * hooks hand their links to their controllers through the same router, so the app never forwards a link itself.
 * Returns the router.
 */
export function useLinkRouter(
  configuration: Pick<BatonConfiguration, 'returnUrls'>,
  onLink: (route: LinkRoute, url: string) => void,
): BatonLinkRouter {
  const router = React.useMemo(() => createLinkRouter(configuration), [configuration]);
  const latest = React.useRef(onLink);
  latest.current = onLink;
  React.useEffect(() => {
    let mounted = true;
    const subscription = Linking.addEventListener('url', (event) => latest.current(router.route(event.url), event.url));
    Linking.getInitialURL().then(
      (url) => {
        if (mounted && url !== null) latest.current(router.route(url), url);
      },
      () => undefined,
    );
    return () => {
      mounted = false;
      subscription.remove();
    };
  }, [router]);
  return router;
}

/** Calls `foregrounded`/`backgrounded` as `AppState` changes while mounted. */
function useAppState(target: { foregrounded(): void; backgrounded(): void } | null): void {
  React.useEffect(() => {
    if (target === null) return undefined;
    const subscription = AppState.addEventListener('change', (state) => {
      if (state === 'active') target.foregrounded();
      else if (state === 'background') target.backgrounded();
    });
    return () => subscription.remove();
  }, [target]);
}

/** What `useChiaHandoff` returns: the screen to render and the actions to wire to it. */
export interface ChiaHandoff {
  screen: ChiaScreen;
  callToActionTapped(): void;
  shareTapped(): void;
  continueTapped(): void;
  /** The last failure besides the screen (e.g. the browser did not open), or null. */
  failure: BatonFlowFailure | null;
  controller: ChiaHandoffController;
}

/** The Chia flow for `catalogItemId` (render `screen` with `<CatalogCardView>`). */
export function useChiaHandoff(
  configuration: BatonConfiguration,
  catalogItemId: string,
  options: Partial<ChiaHandoffOptions> = {},
): ChiaHandoff {
  const [screen, setScreen] = React.useState<ChiaScreen | null>(null);
  const [failure, setFailure] = React.useState<BatonFlowFailure | null>(null);
  const flow = React.useMemo(
    () => createChiaHandoff(configuration, catalogItemId, { openExternal, ...options }, setScreen),
    // The flow is created once per card and configuration; options are read through it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [configuration, catalogItemId],
  );
  React.useEffect(() => {
    flow.controller.resume();
    flow.controller.onFailure = setFailure;
    void flow.start();
    return () => flow.controller.stop();
  }, [flow]);
  useAppState(flow.controller);
  useDeliveredLinks(configuration, 'chia', React.useCallback((url: string) => flow.controller.returnLink(url), [flow]));
  return {
    screen: screen ?? flow.controller.screen,
    callToActionTapped: () => flow.controller.callToActionTapped(),
    shareTapped: () => flow.controller.shareTapped(),
    continueTapped: () => flow.controller.continueTapped(),
    failure,
    controller: flow.controller,
  };
}

/** The journey `<VerificationJourney>` presents while the flow is in it (spread it into the component). */
export interface VerificationJourneyRequest {
  /** The single-use journey URL (never printed; `reveal()`ed only by the web view). */
  url: SensitiveUrl;
  /** Privue's registered return URLs: a navigation to one ends the journey. */
  returnUrls: readonly string[];
  /** Loopback http inside the journey only under the development policy. */
  allowsLoopbackHttp: boolean;
  /** Called once, with how the journey ended. */
  onComplete(completion: BrowserCompletion): void;
}

/** What `useVerification` returns. */
export interface Verification {
  screen: VerificationScreen;
  verifyTapped(): void;
  /** Non-null while the journey is open: render `<VerificationJourney {...journey} />` full screen. */
  journey: VerificationJourneyRequest | null;
  failure: BatonFlowFailure | null;
  controller: VerificationController;
}

/**
 * The Privue verification flow for `workflow`: the journey opens in `<VerificationJourney>` (render it while `journey`
 * is non-null), or on Android in a Custom Tab through `options.androidCustomTab` (an auth-session adapter).
 */
export function useVerification(
  configuration: BatonConfiguration,
  workflow: string,
  options: { androidCustomTab?: AuthSessionAdapter } = {},
): Verification {
  const [screen, setScreen] = React.useState<VerificationScreen | null>(null);
  const [journey, setJourney] = React.useState<VerificationJourneyRequest | null>(null);
  const [failure, setFailure] = React.useState<BatonFlowFailure | null>(null);
  const customTab = Platform.OS === 'android' ? options.androidCustomTab : undefined;
  const controller = React.useMemo(() => {
    let finish: ((completion: BrowserCompletion) => void) | null = null;
    const returnUrl = (configuration.returnUrls.privue ?? [])[0];
    return createVerification(
      configuration,
      workflow,
      customTab !== undefined && returnUrl !== undefined ? authSessionVerificationPresenter(customTab, returnUrl) : {
        present: (url) =>
          new Promise<BrowserCompletion>((resolve) => {
            let done = false;
            finish = (completion) => {
              if (done) return;
              done = true;
              setJourney(null);
              resolve(completion);
            };
            const onComplete = (completion: BrowserCompletion) => finish?.(completion);
            setJourney({
              url,
              returnUrls: configuration.returnUrls.privue ?? [],
              allowsLoopbackHttp: configuration.urlPolicy?.allowsLoopbackHttp ?? false,
              onComplete,
            });
          }),
        dismiss: () => finish?.({ kind: 'cancelled' }),
      },
      setScreen,
    );
  }, [configuration, workflow, customTab]);
  React.useEffect(() => {
    controller.resume();
    controller.onFailure = setFailure;
    return () => controller.stop();
  }, [controller]);
  useAppState(controller);
  useDeliveredLinks(configuration, 'privue', React.useCallback((url: string) => controller.returnLink(url), [controller]));
  return { screen: screen ?? controller.screen, verifyTapped: () => controller.verifyTapped(), journey, failure, controller };
}

/** What `useBankConnect` returns. */
export interface BankConnect {
  screen: ConnectScreen;
  connectTapped(): void;
  failure: BatonFlowFailure | null;
  controller: BankConnectController;
}

/**
 * The BB connect flow, in an authentication session through `adapter` (`expoWebBrowserAuthSession` or
 * `inAppBrowserAuthSession`). The callback is the https return on iOS 17.4+ and Android, the custom scheme below
 * iOS 17.4 (`deviceSupportsHttpsCallback` overrides the `Platform` reading). A session kept from an earlier run is
 * confirmed with the backend on mount.
 */
export function useBankConnect(
  configuration: BatonConfiguration,
  adapter: AuthSessionAdapter,
  options: { deviceSupportsHttpsCallback?: boolean } = {},
): BankConnect {
  const [screen, setScreen] = React.useState<ConnectScreen | null>(null);
  const [failure, setFailure] = React.useState<BatonFlowFailure | null>(null);
  const https = options.deviceSupportsHttpsCallback ?? deviceCatchesHttpsCallback(Platform, adapter);
  const controller = React.useMemo(
    () => createBankConnect(configuration, adapter, https, setScreen),
    [configuration, adapter, https],
  );
  React.useEffect(() => {
    controller.resume();
    controller.onFailure = setFailure;
    void controller.restore();
    return () => controller.stop();
  }, [controller]);
  useAppState(controller);
  useDeliveredLinks(configuration, 'bb', React.useCallback((url: string) => controller.returnLink(url), [controller]));
  return { screen: screen ?? controller.screen, connectTapped: () => controller.connectTapped(), failure, controller };
}
