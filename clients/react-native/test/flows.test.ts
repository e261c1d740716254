// The BB and Privue controllers without React, over the package's own backend client and a scripted transport: every
// end of the browser — a return, a close, a failed open — is confirmed with the backend; only the session id is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthSessionAdapter } from '../src/BankConnectController';
import { storageKeys } from '../src/configuration';
import { SensitiveUrl } from '../src/core/retry';
import { createBankConnect, createLinkRouter, createVerification, deviceCatchesHttpsCallback, supportsHttpsCallback } from '../src/flows';
import { BatonFlowFailure, BrowserCompletion } from '../src/presentation';
import { VerificationPresenter } from '../src/VerificationController';
import { BB_RETURNS, configuration, ManualScheduler, MemoryStorage, PRIVUE_RETURN, ScriptedBackend, settle, USER_ID } from './support';

const STORAGE_KEYS = storageKeys(USER_ID);

const HOSTED = 'https://bb.example/connect/s1?token=secret';

function bbBackend(status = () => 'pending'): ScriptedBackend {
  return new ScriptedBackend((request, path) => {
    if (path === '/v2/connect-sessions') {
      const kind = JSON.parse(request.body ?? '{}').callback;
      return { status: 201, body: { callback: kind, hostedUrl: HOSTED, sessionId: 's1' } };
    }
    if (path === '/v2/connect-sessions/s1') return { status: 200, body: { sessionId: 's1', status: status() } };
    return undefined;
  });
}

class ScriptedAdapter implements AuthSessionAdapter {
  opened: Array<{ url: string; callback: string }> = [];
  constructor(private readonly answer: () => Promise<BrowserCompletion>) {}
  openAuthSession(url: SensitiveUrl, callbackUrl: string): Promise<BrowserCompletion> {
    this.opened.push({ url: url.reveal(), callback: callbackUrl });
    return this.answer();
  }
}

test('BB: closed without a return shows cancelled and still asks the backend; the session id (never the URL) is kept, then forgotten', async () => {
  const backend = bbBackend(() => 'cancelled');
  const storage = new MemoryStorage();
  const scheduler = new ManualScheduler();
  const adapter = new ScriptedAdapter(async () => ({ kind: 'closed_without_return' }));
  const screens: string[] = [];
  const controller = createBankConnect(configuration(backend, storage, scheduler), adapter, true, (s) => screens.push(s.content));
  controller.connectTapped();
  await settle();
  assert.deepEqual(adapter.opened, [{ url: HOSTED, callback: BB_RETURNS.https }]);
  assert.deepEqual(backend.requests, ['POST /v2/connect-sessions', 'GET /v2/connect-sessions/s1']);
  assert.equal(backend.sent[0].body, '{"callback":"https"}');
  assert.deepEqual(screens, ['starting', 'in_browser', 'cancelled', 'cancelled']);
  assert.deepEqual(storage.log, [`set ${STORAGE_KEYS.bbPendingSession}=s1`, `remove ${STORAGE_KEYS.bbPendingSession}`]);
  assert.ok(!storage.log.some((line) => line.includes('secret')));
});

test('BB: a failed open is a typed failure and the backend is asked; a rejected adapter promise counts as failed', async () => {
  for (const answer of [async (): Promise<BrowserCompletion> => ({ kind: 'failed_to_open' }), () => Promise.reject(new Error('no browser'))]) {
    const backend = bbBackend();
    const scheduler = new ManualScheduler();
    const failures: BatonFlowFailure[] = [];
    const controller = createBankConnect(configuration(backend, new MemoryStorage(), scheduler), new ScriptedAdapter(answer), true, () => undefined);
    controller.onFailure = (f) => failures.push(f);
    controller.connectTapped();
    await settle();
    assert.equal(failures.length, 1);
    assert.equal(failures[0].flow, 'bb');
    assert.ok(['browser_failed_to_open', 'browser_failed'].includes(failures[0].code));
    assert.deepEqual(backend.requests, ['POST /v2/connect-sessions', 'GET /v2/connect-sessions/s1']);
    assert.equal(controller.screen.content, 'cancelled');
    // Pending: the bounded poll runs on the scheduler until stop().
    assert.ok(scheduler.pending > 0);
    controller.stop();
    scheduler.advance(120000);
    await settle();
    assert.equal(backend.requests.length, 2, 'no request after stop()');
  }
});

test('BB: the custom-scheme callback below iOS 17.4 (or with an adapter that cannot catch https); the redirect is confirmed', async () => {
  assert.equal(deviceCatchesHttpsCallback({ OS: 'ios', Version: '17.4' }, { openAuthSession: async () => ({ kind: 'cancelled' }) }), false);
  assert.equal(deviceCatchesHttpsCallback({ OS: 'ios', Version: '17.4' }, { openAuthSession: async () => ({ kind: 'cancelled' }), catchesHttpsCallbackOnIOS: true }), true);
  assert.equal(deviceCatchesHttpsCallback({ OS: 'ios', Version: '17.3.1' }, { openAuthSession: async () => ({ kind: 'cancelled' }), catchesHttpsCallbackOnIOS: true }), false);
  assert.equal(deviceCatchesHttpsCallback({ OS: 'android', Version: 34 }, { openAuthSession: async () => ({ kind: 'cancelled' }) }), true);
  for (const [version, expected] of [['17', false], ['17.4', true], ['18.0', true], ['16.7.2', false], ['garbage', false]] as const) {
    assert.equal(supportsHttpsCallback({ OS: 'ios', Version: version }), expected, version);
  }
  assert.equal(supportsHttpsCallback({ OS: 'web', Version: 1 }), false);
  const backend = bbBackend(() => 'ok');
  const adapter = new ScriptedAdapter(async () => ({ kind: 'returned', url: 'acmewallet://bb-callback?sessionId=s1&resultCode=Ok' }));
  const screens: string[] = [];
  const controller = createBankConnect(configuration(backend, new MemoryStorage(), new ManualScheduler()), adapter, false, (s) => screens.push(JSON.stringify(s)));
  controller.connectTapped();
  await settle();
  assert.equal(adapter.opened[0].callback, BB_RETURNS.customScheme);
  assert.equal(backend.sent[0].body, '{"callback":"custom-scheme"}');
  assert.deepEqual(screens.slice(-2), ['{"content":"confirming","hint":"ok"}', '{"content":"connected"}']);
});

test('BB: a cold start confirms the session kept in storage; nothing is asked when none is kept', async () => {
  const storage = new MemoryStorage();
  const backend = bbBackend(() => 'ok');
  const fresh = createBankConnect(configuration(backend, storage, new ManualScheduler()), new ScriptedAdapter(async () => ({ kind: 'cancelled' })), true, () => undefined);
  await fresh.restore();
  await settle();
  assert.deepEqual(backend.requests, []);
  await storage.setItem(STORAGE_KEYS.bbPendingSession, 's1');
  const screens: string[] = [];
  const restored = createBankConnect(configuration(backend, storage, new ManualScheduler()), new ScriptedAdapter(async () => ({ kind: 'cancelled' })), true, (s) => screens.push(JSON.stringify(s)));
  await restored.restore();
  await settle();
  assert.deepEqual(backend.requests, ['GET /v2/connect-sessions/s1']);
  assert.deepEqual(screens, ['{"content":"confirming","hint":"resumed"}', '{"content":"connected"}']);
  assert.equal(storage.items.has(STORAGE_KEYS.bbPendingSession), false);
});

function privueBackend(statuses: string[]): ScriptedBackend {
  return new ScriptedBackend((_request, path) => {
    if (path === '/v2/verification-handoffs') return { status: 200, body: { expiresInSeconds: 120, url: 'https://privue.example/j/1#ticket=T' } };
    if (path === '/v2/verifications/merchant-onboarding') return { status: 200, body: { status: statuses.shift() ?? 'pending', verificationId: 'v1' } };
    return undefined;
  });
}

class ScriptedPresenter implements VerificationPresenter {
  presented: string[] = [];
  dismissed = 0;
  resolve: (completion: BrowserCompletion) => void = () => undefined;
  present(url: SensitiveUrl): Promise<BrowserCompletion> {
    this.presented.push(url.reveal());
    return new Promise((resolve) => (this.resolve = resolve));
  }
  dismiss(): void {
    this.dismissed += 1;
  }
}

test('Privue: the handoff is created at tap time and presented with its fragment; a return is confirmed by polling', async () => {
  const backend = privueBackend(['in_progress', 'approved']);
  const scheduler = new ManualScheduler();
  const presenter = new ScriptedPresenter();
  const screens: string[] = [];
  const controller = createVerification(configuration(backend, new MemoryStorage(), scheduler), 'merchant-onboarding', presenter, (s) => screens.push(JSON.stringify(s)));
  assert.deepEqual(backend.requests, []);
  controller.verifyTapped();
  await settle();
  assert.deepEqual(presenter.presented, ['https://privue.example/j/1#ticket=T']);
  presenter.resolve({ kind: 'returned', url: `${PRIVUE_RETURN}?verification_id=v1&status=approved` });
  await settle();
  assert.deepEqual(screens.slice(-1), ['{"content":"confirming","landingHint":"approved"}']);
  scheduler.advance(2000);
  await settle();
  assert.deepEqual(screens.slice(-1), ['{"content":"settled","status":"approved"}']);
  assert.deepEqual(backend.requests, ['POST /v2/verification-handoffs', 'GET /v2/verifications/merchant-onboarding', 'GET /v2/verifications/merchant-onboarding']);
});

test('Privue: a failed open is a typed failure and confirms with the backend; a completion after the flow moved on is ignored', async () => {
  const backend = privueBackend(['in_progress']);
  const scheduler = new ManualScheduler();
  const presenter = new ScriptedPresenter();
  const failures: BatonFlowFailure[] = [];
  const controller = createVerification(configuration(backend, new MemoryStorage(), scheduler), 'merchant-onboarding', presenter, () => undefined);
  controller.onFailure = (f) => failures.push(f);
  controller.verifyTapped();
  await settle();
  presenter.resolve({ kind: 'failed_to_open' });
  await settle();
  assert.deepEqual(failures, [{ flow: 'privue', code: 'browser_failed_to_open' }]);
  assert.equal(controller.screen.content, 'confirming');
  presenter.resolve({ kind: 'returned', url: `${PRIVUE_RETURN}?verification_id=v1` });
  await settle();
  assert.equal(backend.requests.filter((r) => r.startsWith('GET')).length, 1, 'a stale completion asked again');
  scheduler.advance(60000);
  await settle();
  assert.equal(controller.screen.content, 'check_later');
});

test('Privue: a workflow without registered return URLs is a configuration error, not a crash later', () => {
  const backend = privueBackend([]);
  assert.throws(
    () => createVerification({ ...configuration(backend, new MemoryStorage(), new ManualScheduler()), returnUrls: {} }, 'w', new ScriptedPresenter(), () => undefined),
    (e: unknown) => e instanceof Error && e.name !== 'TypeError',
  );
});

test('createLinkRouter: the configuration\'s BB, Privue and generic return registrations route delivered links', () => {
  const router = createLinkRouter({ returnUrls: { privue: [PRIVUE_RETURN], bb: BB_RETURNS, chiaGenericReturnHost: 'app.example.com' } });
  const cases: Array<[string, string | null]> = [
    [`${BB_RETURNS.https}?sessionId=s1&resultCode=Ok`, 'bb'],
    ['ACMEWALLET://bb-callback?sessionId=s1&resultCode=Cancelled', 'bb'],
    [`${PRIVUE_RETURN}?verification_id=v1`, 'privue'],
    ['https://app.example.com/anything?status=paid', 'chia'],
    ['https://user@app.example.com/bb-callback?sessionId=s1&resultCode=Ok', null],
    ['https://evil.example/bb-callback', null],
  ];
  for (const [url, flow] of cases) assert.equal(router.route(url).flow, flow, url);
  assert.equal(createLinkRouter({ returnUrls: {} }).route(PRIVUE_RETURN).flow, null);
});

test("BB: the landing page's bare link on the open host, registered as bb.landing, routes to BB and ends the browser phase", async () => {
  const LANDING = 'https://open.app.example.com/bb-callback';
  const backend = bbBackend(() => 'ok');
  const base = configuration(backend, new MemoryStorage(), new ManualScheduler());
  const config = { ...base, returnUrls: { ...base.returnUrls, bb: { ...BB_RETURNS, landing: [LANDING] } } };
  assert.deepEqual(createLinkRouter(config).route(LANDING), { flow: 'bb', landing: true });
  assert.deepEqual(createLinkRouter(config).route(`${LANDING}?sessionId=s1&resultCode=Ok`), { flow: 'bb', landing: false });
  const screens: string[] = [];
  const controller = createBankConnect(config, new ScriptedAdapter(() => new Promise<BrowserCompletion>(() => undefined)), true, (s) => screens.push(s.content));
  controller.connectTapped();
  await settle();
  assert.equal(controller.screen.content, 'in_browser');
  controller.returnLink(LANDING);
  await settle();
  assert.deepEqual(backend.requests, ['POST /v2/connect-sessions', 'GET /v2/connect-sessions/s1']);
  assert.equal(controller.screen.content, 'connected');
  // The callback the device catches is still the https return or the custom scheme, never the landing link.
  assert.equal(JSON.parse(backend.sent[0].body ?? '{}').callback, 'https');
  controller.stop();
});
