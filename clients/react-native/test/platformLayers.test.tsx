// The platform layers against the stubs of their libraries' published declarations: the two auth-session adapters,
// JourneyWebPolicy, <VerificationJourney> on react-native-webview, and the three hooks rendered with
// react-test-renderer over the package's own backend client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import TestRenderer, { act } from 'react-test-renderer';
import * as WebBrowser from 'expo-web-browser';
import { InAppBrowser } from 'react-native-inappbrowser-reborn';
import { WebView } from 'react-native-webview';
import { AppState, Linking, Platform } from 'react-native';
import { expoWebBrowserAuthSession, inAppBrowserAuthSession } from '../src/authSessionAdapters';
import { SensitiveUrl } from '../src/core/retry';
import { DEVELOPMENT_URL_POLICY } from '../src/core/urlPolicy';
import { BankConnect, ChiaHandoff, useBankConnect, useChiaHandoff, useVerification, Verification } from '../src/hooks';
import { JourneyWebPolicy } from '../src/journeyWebPolicy';
import { createBankConnect } from '../src/flows';
import { BrowserCompletion } from '../src/presentation';
import { VerificationJourney } from '../src/VerificationJourney';
import { shareCard } from './fixtures';
import { BB_RETURNS, configuration, ManualScheduler, MemoryStorage, PRIVUE_RETURN, ScriptedBackend, settle } from './support';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const stub = (module: unknown): any => module;

const HOSTED = new SensitiveUrl('https://bb.example/connect/s1?t=secret');

test('expo-web-browser adapter: openAuthSessionAsync(url, callback); success returns, cancel/dismiss close, locked and throws fail to open', async () => {
  const adapter = expoWebBrowserAuthSession(WebBrowser);
  assert.equal(adapter.catchesHttpsCallbackOnIOS, false);
  stub(WebBrowser).calls.length = 0;
  stub(WebBrowser).script([
    { type: 'success', url: 'acmewallet://bb-callback?sessionId=s1&resultCode=Ok' },
    { type: 'cancel' },
    { type: 'dismiss' },
    { type: 'locked' },
    new Error('no activity'),
  ]);
  const results: BrowserCompletion[] = [];
  for (let i = 0; i < 5; i++) results.push(await adapter.openAuthSession(HOSTED, BB_RETURNS.customScheme));
  assert.deepEqual(results, [
    { kind: 'returned', url: 'acmewallet://bb-callback?sessionId=s1&resultCode=Ok' },
    { kind: 'closed_without_return' },
    { kind: 'closed_without_return' },
    { kind: 'failed_to_open' },
    { kind: 'failed_to_open' },
  ]);
  assert.deepEqual(stub(WebBrowser).calls[0], {
    fn: 'openAuthSessionAsync',
    url: HOSTED.reveal(),
    redirectUrl: BB_RETURNS.customScheme,
    options: { preferEphemeralSession: false, showInRecents: false },
  });
  assert.equal(expoWebBrowserAuthSession(WebBrowser, { catchesHttpsCallbackOnIOS: true }).catchesHttpsCallbackOnIOS, true);
});

test('react-native-inappbrowser-reborn adapter: openAuth only when available; success returns, cancel closes', async () => {
  const adapter = inAppBrowserAuthSession(InAppBrowser);
  assert.equal(adapter.catchesHttpsCallbackOnIOS, false);
  const fake = stub(InAppBrowser);
  fake.calls.length = 0;
  fake.available = false;
  assert.deepEqual(await adapter.openAuthSession(HOSTED, BB_RETURNS.https), { kind: 'failed_to_open' });
  assert.equal(fake.calls.length, 0);
  fake.available = true;
  fake.script([{ type: 'success', url: `${BB_RETURNS.https}?sessionId=s1&resultCode=Cancelled` }, { type: 'cancel' }]);
  assert.deepEqual(await adapter.openAuthSession(HOSTED, BB_RETURNS.https), { kind: 'returned', url: `${BB_RETURNS.https}?sessionId=s1&resultCode=Cancelled` });
  assert.deepEqual(await adapter.openAuthSession(HOSTED, BB_RETURNS.https), { kind: 'closed_without_return' });
  assert.deepEqual(fake.calls[0], { fn: 'openAuth', url: HOSTED.reveal(), redirectUrl: BB_RETURNS.https, options: { ephemeralWebSession: false, showInRecents: false } });
});

test('JourneyWebPolicy: returns intercepted, https allowed, loopback http only in development, other schemes cancelled; camera for the journey origin only', () => {
  const policy = new JourneyWebPolicy('https://privue.example/j/1#ticket=T', [PRIVUE_RETURN]);
  const cases: Array<[string, string]> = [
    [`${PRIVUE_RETURN}?verification_id=v1&status=approved`, 'intercept_return'],
    ['HTTPS://APP.example.com:443/kyc/done', 'intercept_return'],
    ['https://user@app.example.com/kyc/done?x=1', 'cancel'],
    ['https://app.example.com/kyc/done/extra', 'allow'],
    ['https://digilocker.example/consent', 'allow'],
    ['http://privue.example/j/1', 'cancel'],
    ['http://127.0.0.1:8082/j/1', 'cancel'],
    ['intent://scan#Intent;scheme=zxing;end', 'cancel'],
    ['tel:+15550100', 'cancel'],
    ['about:blank', 'allow'],
    ['blob:https://privue.example/1', 'allow'],
    ['javascript:alert(1)', 'cancel'],
  ];
  for (const [url, expected] of cases) assert.equal(policy.decideNavigation(url).decision, expected, url);
  const development = new JourneyWebPolicy('http://127.0.0.1:8082/j/1', [PRIVUE_RETURN], DEVELOPMENT_URL_POLICY);
  assert.equal(development.decideNavigation('http://127.0.0.1:8082/j/1/submit').decision, 'allow');
  assert.equal(development.decideNavigation('http://example.com/').decision, 'cancel');
  assert.equal(policy.grantsMediaCapture('camera', 'https://privue.example'), true);
  assert.equal(policy.grantsMediaCapture('camera', 'https://privue.example:443'), true);
  assert.equal(policy.grantsMediaCapture('camera', 'https://privue.example:8443'), false);
  assert.equal(policy.grantsMediaCapture('camera', 'https://evil.example'), false);
  assert.equal(policy.grantsMediaCapture('camera', 'http://privue.example'), false);
  assert.equal(policy.grantsMediaCapture('microphone', 'https://privue.example'), false);
  assert.equal(policy.grantsMediaCapture('camera_and_microphone', 'https://privue.example'), false);
});

test('<VerificationJourney>: the URL unchanged (fragment kept), storage kept for the visit only (incognito), camera settings, every navigation through the policy; one end only', async () => {
  const ends: BrowserCompletion[] = [];
  const url = new SensitiveUrl('https://privue.example/j/1#ticket=T%2Bx');
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(
      <VerificationJourney WebView={WebView} url={url} returnUrls={[PRIVUE_RETURN]} allowsLoopbackHttp={false} onComplete={(c) => ends.push(c)} />,
    );
  });
  const web = renderer.root.find((n) => String(n.type) === 'WebView');
  const props = web.props;
  assert.deepEqual(props.source, { uri: 'https://privue.example/j/1#ticket=T%2Bx' });
  assert.deepEqual(props.originWhitelist, ['*']);
  // Site storage and cookies live as long as this one web view (seed 001: the whole visit), never into the next
  // user's visit (docs/CONTRACTS.md §1.3): react-native-webview's `incognito`, no cache kept.
  assert.equal(props.incognito, true);
  assert.equal(props.cacheEnabled, false);
  assert.equal(props.domStorageEnabled, true);
  assert.equal(props.allowsInlineMediaPlayback, true);
  assert.equal(props.mediaPlaybackRequiresUserAction, false);
  assert.equal(props.mediaCapturePermissionGrantType, 'grantIfSameHostElseDeny');
  assert.equal(props.setSupportMultipleWindows, false);
  assert.equal(props.allowFileAccess, false);
  assert.equal(props.onShouldStartLoadWithRequest({ url: 'https://digilocker.example/consent', isTopFrame: true }), true);
  assert.equal(props.onShouldStartLoadWithRequest({ url: 'intent://x#Intent;end', isTopFrame: true }), false);
  assert.deepEqual(ends, []);
  const back = `${PRIVUE_RETURN}?verification_id=v1&status=approved`;
  assert.equal(props.onShouldStartLoadWithRequest({ url: back, isTopFrame: true }), false);
  await act(async () => renderer.root.find((n) => n.props.testID === 'verification-journey.close' && typeof n.type === 'string').props.onPress());
  props.onError();
  assert.deepEqual(ends, [{ kind: 'returned', url: back }]);
});

function privueAndBbBackend(): ScriptedBackend {
  return new ScriptedBackend((request, path) => {
    if (path === '/v2/catalog') return { status: 200, body: { items: [shareCard] } };
    if (path === '/v2/verification-handoffs') return { status: 200, body: { expiresInSeconds: 120, url: 'https://privue.example/j/1#ticket=T' } };
    if (path === '/v2/verifications/kyc') return { status: 200, body: { status: 'approved', verificationId: 'v1' } };
    if (path === '/v2/connect-sessions') return { status: 201, body: { callback: JSON.parse(request.body ?? '{}').callback, hostedUrl: 'https://bb.example/c/1', sessionId: 's1' } };
    if (path === '/v2/connect-sessions/s1') return { status: 200, body: { sessionId: 's1', status: 'cancelled' } };
    return undefined;
  });
}

test('useVerification + <VerificationJourney>: nothing before the tap; the journey renders, its return closes it and the backend settles the screen', async () => {
  const backend = privueAndBbBackend();
  const config = configuration(backend, new MemoryStorage(), new ManualScheduler());
  let latest!: Verification;
  function App(): React.ReactElement | null {
    const verification = useVerification(config, 'kyc');
    latest = verification;
    return verification.journey === null ? null : <VerificationJourney WebView={WebView} {...verification.journey} />;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<App />);
  });
  assert.deepEqual(backend.requests, []);
  assert.equal(latest.screen.content, 'ready');
  await act(async () => {
    latest.verifyTapped();
    await settle();
  });
  assert.equal(latest.screen.content, 'in_journey');
  const web = renderer.root.find((n) => String(n.type) === 'WebView');
  await act(async () => {
    web.props.onShouldStartLoadWithRequest({ url: `${PRIVUE_RETURN}?verification_id=v1&status=approved`, isTopFrame: true });
    await settle();
  });
  assert.equal(latest.journey, null);
  assert.equal(renderer.root.findAll((n) => String(n.type) === 'WebView').length, 0);
  assert.deepEqual(latest.screen, { content: 'settled', status: 'approved' });
  assert.deepEqual(backend.requests, ['POST /v2/verification-handoffs', 'GET /v2/verifications/kyc']);
  await act(async () => renderer.unmount());
});

test('useBankConnect on iOS 17.4 with expo-web-browser: custom-scheme callback, a dismissed sheet is confirmed with the backend', async () => {
  const backend = privueAndBbBackend();
  const storage = new MemoryStorage();
  const config = configuration(backend, storage, new ManualScheduler());
  const adapter = expoWebBrowserAuthSession(WebBrowser);
  stub(WebBrowser).calls.length = 0;
  stub(WebBrowser).script([{ type: 'dismiss' }]);
  let latest!: BankConnect;
  function App(): null {
    latest = useBankConnect(config, adapter);
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<App />);
    await settle();
  });
  assert.deepEqual(backend.requests, [], 'nothing kept, so nothing asked on mount');
  await act(async () => {
    latest.connectTapped();
    await settle();
  });
  assert.equal(backend.sent[0].body, '{"callback":"custom-scheme"}');
  assert.equal(stub(WebBrowser).calls[0].redirectUrl, BB_RETURNS.customScheme);
  assert.deepEqual(backend.requests, ['POST /v2/connect-sessions', 'GET /v2/connect-sessions/s1']);
  assert.equal(latest.screen.content, 'cancelled');
  await act(async () => renderer.unmount());
});

test('useChiaHandoff: nothing before the tap; AppState and Linking are forwarded while mounted and released on unmount', async () => {
  const backend = privueAndBbBackend();
  const config = configuration(backend, new MemoryStorage(), new ManualScheduler());
  let latest!: ChiaHandoff;
  const opened: string[] = [];
  function App(): null {
    latest = useChiaHandoff(config, 'item-1', { openExternal: (url) => void opened.push(url.reveal()) });
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<App />);
    await settle();
  });
  assert.deepEqual(backend.requests, []);
  await act(async () => {
    latest.callToActionTapped();
    await settle();
  });
  assert.equal(latest.screen.content, 'share_or_neutral');
  await act(async () => {
    latest.continueTapped();
    await settle();
  });
  assert.deepEqual(opened, ['https://chia.example/c/item-1']);
  await act(async () => {
    stub(AppState).emit('active');
    await settle();
  });
  assert.deepEqual(backend.requests, ['GET /v2/catalog', 'GET /v2/catalog'], 'foreground after the journey refreshes the projection');
  await act(async () => renderer.unmount());
  assert.equal(stub(Linking).listenerCount(), 0);
});

test('useVerification on Android with androidCustomTab: the journey opens in the auth-session adapter (Custom Tab), not the web view', async () => {
  const platform = stub(Platform);
  const saved = { OS: platform.OS, Version: platform.Version };
  platform.OS = 'android';
  platform.Version = 34;
  const backend = privueAndBbBackend();
  const config = configuration(backend, new MemoryStorage(), new ManualScheduler());
  const opened: Array<{ url: string; callback: string }> = [];
  const customTab = {
    openAuthSession: async (url: SensitiveUrl, callbackUrl: string): Promise<BrowserCompletion> => {
      opened.push({ url: url.reveal(), callback: callbackUrl });
      return { kind: 'returned', url: `${PRIVUE_RETURN}?verification_id=v1&status=approved` };
    },
  };
  let latest!: Verification;
  function App(): null {
    latest = useVerification(config, 'kyc', { androidCustomTab: customTab });
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  try {
    await act(async () => {
      renderer = TestRenderer.create(<App />);
    });
    await act(async () => {
      latest.verifyTapped();
      await settle();
    });
    assert.deepEqual(opened, [{ url: 'https://privue.example/j/1#ticket=T', callback: PRIVUE_RETURN }]);
    assert.equal(latest.journey, null);
    assert.deepEqual(latest.screen, { content: 'settled', status: 'approved' });
    await act(async () => renderer.unmount());
  } finally {
    platform.OS = saved.OS;
    platform.Version = saved.Version;
  }
});

test('the hooks stop their flow on unmount: no polling after; resume() undoes stop() for a remount', async () => {
  const backend = new ScriptedBackend((request, path) => {
    if (path === '/v2/connect-sessions') return { status: 201, body: { callback: JSON.parse(request.body ?? '{}').callback, hostedUrl: 'https://bb.example/c/1', sessionId: 's1' } };
    if (path === '/v2/connect-sessions/s1') return { status: 200, body: { sessionId: 's1', status: 'pending' } };
    return undefined;
  });
  const scheduler = new ManualScheduler();
  const config = configuration(backend, new MemoryStorage(), scheduler);
  const adapter = { openAuthSession: async (): Promise<BrowserCompletion> => ({ kind: 'closed_without_return' }) };
  let latest!: BankConnect;
  function App(): null {
    latest = useBankConnect(config, adapter, { deviceSupportsHttpsCallback: true });
    return null;
  }
  let renderer!: TestRenderer.ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(<App />);
    await settle();
  });
  await act(async () => {
    latest.connectTapped();
    await settle();
  });
  assert.deepEqual(backend.requests, ['POST /v2/connect-sessions', 'GET /v2/connect-sessions/s1']);
  await act(async () => {
    scheduler.advance(2000);
    await settle();
  });
  assert.equal(backend.requests.length, 3, 'polling runs while mounted');
  await act(async () => renderer.unmount());
  for (let i = 0; i < 5; i++) {
    scheduler.advance(2000);
    await settle();
  }
  assert.equal(backend.requests.length, 3, 'polling after unmount');
  // What a remount (React's strict mode runs effect, cleanup, effect) relies on: stop() then resume() keeps the flow.
  const controller = createBankConnect(config, adapter, true, () => undefined);
  controller.stop();
  controller.connectTapped();
  await settle();
  assert.equal(backend.requests.length, 3, 'a stopped flow acted');
  controller.resume();
  controller.connectTapped();
  await settle();
  assert.equal(backend.requests[3], 'POST /v2/connect-sessions');
});
