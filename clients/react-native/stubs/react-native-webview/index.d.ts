// A reduced typed stub of `react-native-webview` for type-checking and node tests only; never shipped. The props
// follow the package's published WebViewTypes (react-native-webview/react-native-webview, src/WebViewTypes.ts):
// shared, iOS and Android props, reduced to those a journey web view may set.
import { Component } from 'react';

export interface WebViewNativeEvent {
  url: string;
  loading: boolean;
  title: string;
  canGoBack: boolean;
  canGoForward: boolean;
  lockIdentifier: number;
}
export interface WebViewNavigation extends WebViewNativeEvent {
  navigationType: 'click' | 'formsubmit' | 'backforward' | 'reload' | 'formresubmit' | 'other';
  mainDocumentURL?: string;
}
export interface ShouldStartLoadRequest extends WebViewNavigation {
  isTopFrame: boolean;
}
export type OnShouldStartLoadWithRequest = (event: ShouldStartLoadRequest) => boolean;
export interface NativeSyntheticEvent<T> {
  nativeEvent: T;
}
export interface WebViewError extends WebViewNativeEvent {
  domain?: string;
  code: number;
  description: string;
}
export type WebViewErrorEvent = NativeSyntheticEvent<WebViewError>;
export type WebViewTerminatedEvent = NativeSyntheticEvent<WebViewNativeEvent>;
export type WebViewRenderProcessGoneEvent = NativeSyntheticEvent<{ didCrash: boolean }>;
export type MediaCapturePermissionGrantType = 'grantIfSameHostElsePrompt' | 'grantIfSameHostElseDeny' | 'deny' | 'grant' | 'prompt';
export interface WebViewSourceUri {
  uri: string;
  method?: string;
  headers?: Object;
  body?: string;
}
export interface WebViewSourceHtml {
  html: string;
  baseUrl?: string;
}
export type WebViewSource = WebViewSourceUri | WebViewSourceHtml;

export interface WebViewProps {
  testID?: string;
  style?: object;
  source?: WebViewSource;
  javaScriptEnabled?: boolean;
  javaScriptCanOpenWindowsAutomatically?: boolean;
  originWhitelist?: string[];
  onShouldStartLoadWithRequest?: OnShouldStartLoadWithRequest;
  onError?: (event: WebViewErrorEvent) => void;
  cacheEnabled?: boolean;
  mediaPlaybackRequiresUserAction?: boolean;
  // iOS
  incognito?: boolean;
  allowsInlineMediaPlayback?: boolean;
  sharedCookiesEnabled?: boolean;
  allowsLinkPreview?: boolean;
  mediaCapturePermissionGrantType?: MediaCapturePermissionGrantType;
  onContentProcessDidTerminate?: (event: WebViewTerminatedEvent) => void;
  // Android
  domStorageEnabled?: boolean;
  thirdPartyCookiesEnabled?: boolean;
  setSupportMultipleWindows?: boolean;
  allowFileAccess?: boolean;
  mixedContentMode?: 'never' | 'always' | 'compatibility';
  geolocationEnabled?: boolean;
  onRenderProcessGone?: (event: WebViewRenderProcessGoneEvent) => void;
}

export declare class WebView<P = {}> extends Component<WebViewProps & P> {}
export default WebView;
