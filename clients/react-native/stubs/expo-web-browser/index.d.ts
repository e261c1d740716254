// A reduced typed stub of `expo-web-browser` for type-checking and node tests only; never shipped. The declarations
// follow the package's published build/WebBrowser.d.ts and WebBrowser.types.d.ts (expo/expo,
// packages/expo-web-browser), so an adapter that misuses the API fails `tsc`.
export type WebBrowserWindowFeatures = Record<string, number | boolean | string>;
export type WebBrowserOpenOptions = {
  toolbarColor?: string;
  browserPackage?: string;
  enableBarCollapsing?: boolean;
  secondaryToolbarColor?: string;
  showTitle?: boolean;
  enableDefaultShareMenuItem?: boolean;
  showInRecents?: boolean;
  createTask?: boolean;
  controlsColor?: string;
  dismissButtonStyle?: 'done' | 'close' | 'cancel';
  readerMode?: boolean;
  windowName?: string;
  windowFeatures?: string | WebBrowserWindowFeatures;
};
export type AuthSessionOpenOptions = WebBrowserOpenOptions & {
  preferEphemeralSession?: boolean;
};
export declare enum WebBrowserResultType {
  CANCEL = 'cancel',
  DISMISS = 'dismiss',
  OPENED = 'opened',
  LOCKED = 'locked',
}
export type WebBrowserResult = { type: WebBrowserResultType };
export type WebBrowserRedirectResult = { type: 'success'; url: string };
export type WebBrowserAuthSessionResult = WebBrowserRedirectResult | WebBrowserResult;
export declare function openAuthSessionAsync(
  url: string,
  redirectUrl?: string | null,
  options?: AuthSessionOpenOptions,
): Promise<WebBrowserAuthSessionResult>;
export declare function dismissAuthSession(): void;
export declare function openBrowserAsync(url: string, browserParams?: WebBrowserOpenOptions): Promise<WebBrowserResult>;
export declare function dismissBrowser(): void;
