/**
 * Auth-session adapters for BB (seed 002: ASWebAuthenticationSession on iOS, Custom Tabs on Android — never the
 * system browser app, never a web view) over the two libraries React Native apps use. Each takes the library's module
 * as an argument (`import * as WebBrowser from 'expo-web-browser'`), so the package never imports an optional peer
 * an app has not installed. The shapes below are the parts of each library's published declarations the adapters
 * use (checked against stubs copied from them in test/).
 */
import { AuthSessionAdapter } from './BankConnectController';
import { SensitiveUrl } from './core/retry';
import { BrowserCompletion } from './presentation';
import { VerificationPresenter } from './VerificationController';

/** What `openAuthSessionAsync` / `openAuth` resolve with: the redirect, or how the session ended without one. */
export type AuthSessionLibraryResult = { type: 'success'; url: string } | { type: string; url?: undefined };

/** The part of `expo-web-browser` the adapter uses (`openAuthSessionAsync`, `dismissAuthSession`). */
export interface ExpoWebBrowserModule {
  openAuthSessionAsync(
    url: string,
    redirectUrl?: string | null,
    options?: { preferEphemeralSession?: boolean; createTask?: boolean; showInRecents?: boolean },
  ): Promise<AuthSessionLibraryResult | { type: string }>;
  dismissAuthSession(): void;
}

/** The part of `react-native-inappbrowser-reborn`'s `InAppBrowser` the adapter uses. */
export interface InAppBrowserModule {
  openAuth(url: string, redirectUrl: string, options?: { ephemeralWebSession?: boolean; showInRecents?: boolean }): Promise<AuthSessionLibraryResult | { type: string }>;
  closeAuth(): void;
  isAvailable(): Promise<boolean>;
}

/** An adapter, plus whether it can catch an https (universal link) callback on iOS 17.4+. */
export interface LibraryAuthSessionAdapter extends AuthSessionAdapter {
  /** True only when the library opens ASWebAuthenticationSession with `.https(host:path:)` on iOS 17.4+. */
  readonly catchesHttpsCallbackOnIOS: boolean;
}

function completion(result: AuthSessionLibraryResult | { type: string }): BrowserCompletion {
  if (result.type === 'success' && typeof (result as { url?: unknown }).url === 'string') {
    return { kind: 'returned', url: (result as { url: string }).url };
  }
  // 'locked': another session is already open, so this one never started.
  if (result.type === 'locked') return { kind: 'failed_to_open' };
  // 'cancel' / 'dismiss' (iOS), 'dismiss' after the Custom Tab closed without a redirect (Android), 'opened'.
  return { kind: 'closed_without_return' };
}

async function settle(open: () => Promise<AuthSessionLibraryResult | { type: string }>): Promise<BrowserCompletion> {
  let result: AuthSessionLibraryResult | { type: string };
  try {
    result = await open();
  } catch {
    return { kind: 'failed_to_open' };
  }
  return completion(result);
}

/**
 * BB through `expo-web-browser`'s `openAuthSessionAsync` (ASWebAuthenticationSession on iOS, Custom Tabs on Android).
 * The versions whose source was read here pass only the redirect URL's scheme to ASWebAuthenticationSession
 * (`callbackURLScheme`), which cannot catch an https callback: keep `catchesHttpsCallbackOnIOS` false (the custom
 * scheme is used on iOS) unless your expo-web-browser version uses `.https(host:path:)` on iOS 17.4+.
 */
export function expoWebBrowserAuthSession(
  webBrowser: ExpoWebBrowserModule,
  options: { catchesHttpsCallbackOnIOS?: boolean; preferEphemeralSession?: boolean } = {},
): LibraryAuthSessionAdapter {
  return {
    catchesHttpsCallbackOnIOS: options.catchesHttpsCallbackOnIOS ?? false,
    openAuthSession: (url: SensitiveUrl, callbackUrl: string) =>
      settle(() => webBrowser.openAuthSessionAsync(url.reveal(), callbackUrl, { preferEphemeralSession: options.preferEphemeralSession ?? false, showInRecents: false })),
  };
}

/**
 * BB through `react-native-inappbrowser-reborn`'s `InAppBrowser.openAuth` (ASWebAuthenticationSession on iOS, Custom
 * Tabs on Android). Its iOS side passes only the redirect URL's scheme (`callbackURLScheme`), so on iOS the custom
 * scheme is always used.
 */
export function inAppBrowserAuthSession(inAppBrowser: InAppBrowserModule, options: { ephemeralWebSession?: boolean } = {}): LibraryAuthSessionAdapter {
  return {
    catchesHttpsCallbackOnIOS: false,
    openAuthSession: async (url: SensitiveUrl, callbackUrl: string) => {
      let available = false;
      try {
        available = await inAppBrowser.isAvailable();
      } catch {
        available = false;
      }
      if (!available) return { kind: 'failed_to_open' };
      return settle(() => inAppBrowser.openAuth(url.reveal(), callbackUrl, { ephemeralWebSession: options.ephemeralWebSession ?? false, showInRecents: false }));
    },
  };
}

/**
 * Privue in a Custom Tab (Android only: seed 001 allows "a Chrome Custom Tab"; the browser then asks for the camera
 * per origin itself, which `react-native-webview` cannot express). Never on iOS: ASWebAuthenticationSession and
 * SFSafariViewController do not offer the camera to the page. The tab ends on the redirect to `returnUrl`.
 */
export function authSessionVerificationPresenter(adapter: AuthSessionAdapter, returnUrl: string): VerificationPresenter {
  return {
    present: (url) => adapter.openAuthSession(url, returnUrl),
    dismiss: () => undefined,
  };
}
