// examples/react-native-app's App.tsx, compiled as it is, run under node: react-test-renderer renders it against the
// typed stubs (react-native, react-native-webview, expo-web-browser, an in-memory AsyncStorage) and the package's
// dist/, and a driver types this run's dev sign-in secret (the sandbox's .baton/dev-sign-in-secret) into it and taps
// it through sign-in, the Chia card, Privue, BB and sign-out against a live `baton serve --sandbox`. The sample's
// fixed backend origin (127.0.0.1:9080) is rewritten to the sandbox's free port in `fetch`; the browsers are the
// headless ones of the journey walk. Run by scripts/walk-journeys; prints "typescript sample app: N/N steps" and
// exits non-zero when a step fails.
import * as React from 'react';
import TestRenderer, { act, ReactTestInstance } from 'react-test-renderer';
import { join } from 'path';
import { storageKeys } from '../../src/configuration';
import { SensitiveUrl } from '../../src/core/retry';
import { HeadlessAuthSession, HeadlessCameraWebView, HeadlessExternalBrowser, InFlight } from './headless';
import { Sandbox } from './sandbox';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const SAMPLE_ORIGIN = 'http://127.0.0.1:9080';
const PRIVUE_RETURN = 'https://app.example.com/kyc/done';
const WAIT_MILLIS = 30000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function texts(node: ReactTestInstance): string {
  return node.children.map((c) => (typeof c === 'string' ? c : texts(c))).join(' ');
}

async function main(): Promise<number> {
  const sandbox = await Sandbox.start();
  const inFlight = new InFlight();
  const original = (globalThis as Any).fetch;
  (globalThis as Any).fetch = (url: string, init: unknown) =>
    inFlight.track(original(url.startsWith(SAMPLE_ORIGIN) ? sandbox.backend + url.slice(SAMPLE_ORIGIN.length) : url, init));
  // The browsers: Chia's page in the OS browser (Linking.openURL), BB's in the auth session (expo-web-browser).
  const linking = require('react-native').Linking;
  const external = new HeadlessExternalBrowser(inFlight);
  linking.openURL = (url: string) => external.open(new SensitiveUrl(url)).then(() => true);
  const bank = new HeadlessAuthSession(inFlight).then({ complete: 'Ok' });
  const webBrowser = require('expo-web-browser');
  webBrowser.openAuthSessionAsync = async (url: string, redirectUrl: string) => {
    const completion = await bank.openAuthSession(new SensitiveUrl(url), redirectUrl);
    return completion.kind === 'returned' ? { type: 'success', url: completion.url } : { type: 'dismiss' };
  };
  const storage: Map<string, string> = require('@react-native-async-storage/async-storage').default.items;
  const App: React.ComponentType = require(join(__dirname, '..', '..', 'sample', 'App.js')).default;

  let renderer!: TestRenderer.ReactTestRenderer;
  const root = () => renderer.root;
  const shown = () => texts(root());
  const until = async (what: string, condition: () => boolean): Promise<void> => {
    const deadline = Date.now() + WAIT_MILLIS;
    for (;;) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 5));
      });
      if (condition() && inFlight.idle) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows: ${shown().slice(0, 300)}`);
    }
  };
  const press = async (label: string): Promise<void> => {
    const target = root().findAll((n) => String(n.type) === 'Pressable' && texts(n).trim() === label)[0];
    if (target === undefined) throw new Error(`no button "${label}" on screen: ${shown().slice(0, 300)}`);
    await act(async () => target.props.onPress());
  };
  const type = async (testID: string, text: string): Promise<void> => {
    const target = root().findAll((n) => String(n.type) === 'TextInput' && n.props.testID === testID)[0];
    if (target === undefined) throw new Error(`no ${testID} field on screen`);
    await act(async () => target.props.onChangeText(text));
  };
  const pressId = async (testID: string): Promise<void> => {
    const target = root().findAll((n) => String(n.type) === 'Pressable' && n.props.testID === testID)[0];
    if (target === undefined) throw new Error(`no ${testID} on screen`);
    await act(async () => target.props.onPress());
  };

  const steps: Array<[string, () => Promise<string | null>]> = [
    ['sign in as test-user-1 (POST /web/dev-token): a wrong dev secret is refused, the printed one signs in, the card renders', async () => {
      await type('dev-secret', 'not-this-runs-secret');
      await press('Sign in as test-user-1');
      await until('the refusal', () => shown().includes('dev-token answered 403: copy the dev sign-in secret'));
      if (shown().includes('Signed in as')) return 'signed in with a wrong dev secret';
      await type('dev-secret', ` ${sandbox.devSecret()}\n`); // pasted with stray whitespace, as from a terminal
      await press('Sign in as test-user-1');
      await until('the card', () => shown().includes('Signed in as test-user-1') && root().findAll((n) => n.props.testID === 'card').length > 0);
      return null;
    }],
    ['Chia: Get started → disclosure → Share opens the journey in the OS browser', async () => {
      await pressId('action:cta');
      await until('the disclosure', () => root().findAll((n) => n.props.testID === 'action.primary' && n.props.accessibilityState?.disabled === false).length > 0);
      await pressId('action.primary');
      await until('the journey', () => external.presentations.length === 1);
      const page = external.presentations[0].firstPage;
      return page === 'chia-journey' ? null : `first page ${page}`;
    }],
    ['Privue: Verify → the camera web view → submitted approved → settled', async () => {
      await press('Verify');
      await press('Verify your business');
      await until('the web view', () => root().findAll((n) => String(n.type) === 'WebView').length === 1);
      const web = root().findAll((n) => String(n.type) === 'WebView')[0];
      if (web.props.incognito !== true) return 'the journey web view is not incognito';
      const completion = await new HeadlessCameraWebView(inFlight, [PRIVUE_RETURN]).then('approved').present(new SensitiveUrl(web.props.source.uri));
      if (completion.kind !== 'returned') return `the journey ended ${completion.kind}`;
      await act(async () => web.props.onShouldStartLoadWithRequest({ url: completion.url, isTopFrame: true }));
      await until('the settled verification', () => shown().includes('Verification: approved.'));
      return null;
    }],
    ['BB: Bank → Connect your bank → auth session, Ok → connected', async () => {
      await press('Bank');
      await press('Connect your bank');
      await until('the connection', () => shown().includes('Bank connection: connected.'));
      const presentation = bank.presentations[0];
      return presentation?.completion === 'returned' ? null : `the auth session ended ${presentation?.completion}`;
    }],
    ['Chia again: back in the app, Chia answers 503 → the share is uncertain; its attempt is kept under test-user-1\'s key', async () => {
      const fault = await sandbox.call('POST', `${sandbox.chia}/_sandbox/faults`, { endpoint: 'POST /v2/handoff-sessions', fault: 'status', status: 503, count: 3 });
      if (fault.status !== 201) return `fault injection answered ${fault.status}`;
      await press('Catalog');
      await act(async () => require('react-native').AppState.emit('active'));
      await until('the card again', () => root().findAll((n) => n.props.testID === 'action:cta').length > 0);
      await pressId('action:cta');
      await until('the disclosure again', () => root().findAll((n) => n.props.testID === 'action.primary' && n.props.accessibilityState?.disabled === false).length > 0);
      await pressId('action.primary');
      await until('the notice', () => root().findAll((n) => n.props.testID === 'notice').length > 0);
      return storage.has(storageKeys('test-user-1').chiaPendingAttempt) ? null : 'no attempt kept under test-user-1\'s key';
    }],
    ['sign out: back to sign-in, nothing of test-user-1 in storage', async () => {
      const keys = storageKeys('test-user-1');
      await press('Sign out');
      await until('the sign-in screen', () => shown().includes('Sign in as test-user-1'));
      const left = [...storage.keys()].filter((k) => k === keys.chiaPendingAttempt || k === keys.bbPendingSession);
      return left.length === 0 ? null : `kept after sign-out: ${left.length} key(s) of test-user-1`;
    }],
    ['test-user-2 signs in: the card shows nothing of test-user-1 and resends no share', async () => {
      const journeys = external.presentations.length;
      await press('Sign in as test-user-2');
      await until('the second user\'s card', () => shown().includes('Signed in as test-user-2') && root().findAll((n) => n.props.testID === 'card').length > 0);
      await pressId('action:cta');
      await until('the disclosure', () => root().findAll((n) => n.props.testID === 'action.primary').length > 0);
      if (root().findAll((n) => n.props.testID === 'notice').length > 0) return 'test-user-2 sees a notice of test-user-1\'s share';
      return external.presentations.length === journeys ? null : 'a share was resent for test-user-2';
    }],
  ];

  let passed = 0;
  try {
    await act(async () => {
      renderer = TestRenderer.create(<App />);
    });
    for (const [title, run] of steps) {
      let failure: string | null;
      try {
        failure = await run();
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      process.stdout.write(`${failure === null ? '✓' : '✗'} ${title}${failure === null ? '' : `: ${failure}`}\n`);
      if (failure !== null) break;
      passed += 1;
    }
  } finally {
    await act(async () => renderer?.unmount());
    (globalThis as Any).fetch = original;
    await sandbox.stop();
  }
  process.stdout.write(`typescript sample app: ${passed}/${steps.length} steps against baton serve --sandbox\n`);
  return passed === steps.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stdout.write(`typescript sample app: could not run (${error instanceof Error ? error.message : String(error)})\n`);
    process.exit(1);
  },
);
