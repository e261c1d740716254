/**
 * `<VerificationJourney>`: Privue's journey in a `react-native-webview` that carries the camera (seed 001), rendered
 * full screen while `useVerification().journey` is non-null. The app passes the library's `WebView` component
 * (`import { WebView } from 'react-native-webview'`), so the package never imports an optional peer itself.
 *
 * What it sets, and what the library cannot express (docs/react-native.md "Privue: what the web view cannot do"):
 * - site storage and cookies kept for the visit and no longer (`incognito`, DOM storage on, no cache), one web view for
 *   the whole journey, no new windows, no file access, no mixed content. On iOS `incognito` gives the web view a
 *   non-persistent `WKWebsiteDataStore`: nothing outlives the journey, so the next user never opens Privue signed in
 *   as the last (docs/CONTRACTS.md §1.3). On Android the library removes every cookie of the app's WebViews when the
 *   journey opens and keeps no cache, but the cookies and DOM storage the journey sets stay on disk until the next
 *   incognito web view (docs/react-native.md "Sign-out");
 * - inline media without a tap; on iOS 15+ `mediaCapturePermissionGrantType="grantIfSameHostElseDeny"`: capture is
 *   granted to the journey's host without a prompt and denied to every other host — the closest setting to "camera,
 *   journey origin only": it compares hosts, not scheme and port, and it cannot tell the camera from the microphone;
 * - on Android the library checks no origin and offers no callback: it grants the camera to whichever origin asks once
 *   the user allows it (use `authSessionVerificationPresenter` for a Custom Tab instead where that is the safer
 *   choice, and do not declare `RECORD_AUDIO`);
 * - every navigation goes through `JourneyWebPolicy`: `originWhitelist` is `['*']` so that the library never hands a
 *   URL to another app itself; a registered return URL ends the journey; https stays; everything else is cancelled.
 */
import * as React from 'react';
import { Pressable, Text, View } from 'react-native';
import { DEVELOPMENT_URL_POLICY, PRODUCTION_URL_POLICY } from './core/urlPolicy';
import { VerificationJourneyRequest } from './hooks';
import { JourneyWebPolicy } from './journeyWebPolicy';

/** The navigation request `onShouldStartLoadWithRequest` receives (react-native-webview `ShouldStartLoadRequest`). */
export interface JourneyNavigationRequest {
  url: string;
  isTopFrame?: boolean;
}

/** The `react-native-webview` props `<VerificationJourney>` sets (a subset of its published `WebViewProps`). */
export interface JourneyWebViewProps {
  testID?: string;
  style?: object;
  source: { uri: string };
  originWhitelist: string[];
  onShouldStartLoadWithRequest: (request: JourneyNavigationRequest) => boolean;
  javaScriptEnabled: boolean;
  domStorageEnabled: boolean;
  incognito: boolean;
  cacheEnabled: boolean;
  sharedCookiesEnabled: boolean;
  thirdPartyCookiesEnabled: boolean;
  allowsInlineMediaPlayback: boolean;
  mediaPlaybackRequiresUserAction: boolean;
  mediaCapturePermissionGrantType: 'grantIfSameHostElseDeny';
  setSupportMultipleWindows: boolean;
  javaScriptCanOpenWindowsAutomatically: boolean;
  allowFileAccess: boolean;
  allowsLinkPreview: boolean;
  mixedContentMode: 'never';
  onError: () => void;
  onContentProcessDidTerminate: () => void;
  onRenderProcessGone: () => void;
}

export interface VerificationJourneyProps extends VerificationJourneyRequest {
  /** `WebView` from `react-native-webview`. */
  WebView: React.ComponentType<JourneyWebViewProps>;
  /** The close button's label (default "Close"). */
  closeLabel?: string;
  style?: object;
}

/** The journey in a camera web view, with a Close button; calls `onComplete` exactly once. */
export function VerificationJourney(props: VerificationJourneyProps): React.ReactElement {
  const { url, returnUrls, allowsLoopbackHttp, onComplete, WebView } = props;
  const target = url.reveal();
  const policy = React.useMemo(
    () => new JourneyWebPolicy(target, returnUrls, allowsLoopbackHttp ? DEVELOPMENT_URL_POLICY : PRODUCTION_URL_POLICY),
    [target, returnUrls, allowsLoopbackHttp],
  );
  const ended = React.useRef(false);
  const end = React.useCallback(
    (completion: Parameters<VerificationJourneyRequest['onComplete']>[0]) => {
      if (ended.current) return;
      ended.current = true;
      onComplete(completion);
    },
    [onComplete],
  );
  const onShouldStartLoadWithRequest = React.useCallback(
    (request: JourneyNavigationRequest) => {
      const decision = policy.decideNavigation(request.url);
      if (decision.decision === 'intercept_return') {
        end({ kind: 'returned', url: decision.url });
        return false;
      }
      return decision.decision === 'allow';
    },
    [policy, end],
  );
  return (
    <View testID="verification-journey" style={props.style ?? { flex: 1 }}>
      <Pressable
        testID="verification-journey.close"
        accessibilityRole="button"
        accessibilityLabel={props.closeLabel ?? 'Close'}
        onPress={() => end({ kind: 'closed_without_return' })}
        style={{ minHeight: 48, alignSelf: 'flex-start', justifyContent: 'center' }}
      >
        <Text>{props.closeLabel ?? 'Close'}</Text>
      </Pressable>
      <WebView
        testID="verification-journey.web-view"
        style={{ flex: 1 }}
        source={{ uri: target }}
        originWhitelist={['*']}
        onShouldStartLoadWithRequest={onShouldStartLoadWithRequest}
        javaScriptEnabled={true}
        domStorageEnabled={true}
        incognito={true}
        cacheEnabled={false}
        sharedCookiesEnabled={false}
        thirdPartyCookiesEnabled={false}
        allowsInlineMediaPlayback={true}
        mediaPlaybackRequiresUserAction={false}
        mediaCapturePermissionGrantType="grantIfSameHostElseDeny"
        setSupportMultipleWindows={false}
        javaScriptCanOpenWindowsAutomatically={false}
        allowFileAccess={false}
        allowsLinkPreview={false}
        mixedContentMode="never"
        onError={() => end({ kind: 'failed' })}
        onContentProcessDidTerminate={() => end({ kind: 'failed' })}
        onRenderProcessGone={() => end({ kind: 'failed' })}
      />
    </View>
  );
}
