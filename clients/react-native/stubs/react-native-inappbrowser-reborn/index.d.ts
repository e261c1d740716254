// A reduced typed stub of `react-native-inappbrowser-reborn` for type-checking and node tests only; never shipped.
// The declarations follow the package's published index.d.ts (proyecto26/react-native-inappbrowser).
export interface BrowserResult {
  type: 'cancel' | 'dismiss';
}
export interface RedirectResult {
  type: 'success';
  url: string;
}
export type InAppBrowseriOSOptions = {
  dismissButtonStyle?: 'done' | 'close' | 'cancel';
  readerMode?: boolean;
  animated?: boolean;
  modalEnabled?: boolean;
  enableBarCollapsing?: boolean;
  ephemeralWebSession?: boolean;
};
export type InAppBrowserAndroidOptions = {
  showTitle?: boolean;
  toolbarColor?: string;
  enableUrlBarHiding?: boolean;
  enableDefaultShare?: boolean;
  forceCloseOnRedirection?: boolean;
  headers?: { [key: string]: string };
  hasBackButton?: boolean;
  browserPackage?: string;
  showInRecents?: boolean;
  includeReferrer?: boolean;
};
export type InAppBrowserOptions = InAppBrowserAndroidOptions | InAppBrowseriOSOptions;
type AuthSessionResult = RedirectResult | BrowserResult;
interface InAppBrowserClassMethods {
  open: (url: string, options?: InAppBrowserOptions) => Promise<BrowserResult>;
  close: () => void;
  openAuth: (url: string, redirectUrl: string, options?: InAppBrowserOptions) => Promise<AuthSessionResult>;
  closeAuth: () => void;
  isAvailable: () => Promise<boolean>;
}
export const InAppBrowser: InAppBrowserClassMethods;
export default InAppBrowser;
