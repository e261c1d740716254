// The flow rules (docs/CONTRACTS.md §1.1) in the TypeScript machines, beyond the shared vectors (mirrors the
// Kotlin *FlowRulesTest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaAction, ChiaHandoffMachine } from '../src/core/chiaMachine';
import { ConnectMachine } from '../src/core/connectMachine';
import { PollingPolicy } from '../src/core/polling';
import { ConnectReturnParser, GenericReturnParser, VerificationReturnParser } from '../src/core/returnLinks';
import { SensitiveUrl } from '../src/core/retry';
import { VerificationMachine } from '../src/core/verificationMachine';
import { shareCard } from './fixtures';

const keyA = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const keyB = '9b2c6f1e-8d4a-4c3b-a1e2-5f6d7c8b9a01';

function presented(): ChiaHandoffMachine {
  const machine = new ChiaHandoffMachine('item-1', new GenericReturnParser('partner.example'));
  machine.handle({ type: 'cta' });
  machine.handle({ type: 'projection', card: decodeCatalogCard(shareCard) });
  return machine;
}

const sends = (actions: ChiaAction[]) => actions.flatMap((a) => (a.type === 'send_share_request' ? [a.attempt] : []));

test('chia: a 408 keeps the exact body and key', () => {
  const machine = presented();
  const [sent] = sends(machine.handle({ type: 'share_tap', atMillis: 0, freshKey: keyA }));
  const failed = machine.handle({ type: 'share_failed', outcome: { kind: 'response', status: 408, retryAfter: null }, atMillis: 1000 });
  assert.ok(failed.every((a) => a.type !== 'discard_pending_attempt' && a.type !== 'fetch_projection'));
  assert.deepEqual(sends(machine.handle({ type: 'share_tap', atMillis: 5000, freshKey: keyB })), [sent]);
});

test('chia: a 401 asks to sign in again and the next share resends the same key and body', () => {
  const machine = presented();
  const [sent] = sends(machine.handle({ type: 'share_tap', atMillis: 0, freshKey: keyA }));
  const failed = machine.handle({ type: 'share_failed', outcome: { kind: 'response', status: 401, retryAfter: null }, atMillis: 1 });
  assert.deepEqual(failed[0], { type: 'request_sign_in' });
  assert.ok(failed.every((a) => a.type !== 'discard_pending_attempt' && a.type !== 'fetch_projection'));
  assert.equal(machine.screen.notice, 'sign_in_required');
  assert.deepEqual(sends(machine.handle({ type: 'share_tap', atMillis: 2, freshKey: keyB })), [sent]);
});

test('chia: during a Retry-After wait Continue stays usable and a Share tap joins the pending retry', () => {
  const machine = presented();
  const [sent] = sends(machine.handle({ type: 'share_tap', atMillis: 0, freshKey: keyA }));
  const failed = machine.handle({ type: 'share_failed', outcome: { kind: 'response', status: 429, retryAfter: '10' }, atMillis: 1000 });
  assert.ok(failed.some((a) => a.type === 'schedule_tick' && a.atMillis === 11_000));
  assert.ok(machine.screen.continueEnabled && machine.screen.shareEnabled);
  assert.deepEqual(sends(machine.handle({ type: 'share_tap', atMillis: 3000, freshKey: keyB })), []);
  assert.ok(machine.screen.continueEnabled);
  assert.deepEqual(machine.handle({ type: 'share_tap', atMillis: 4000, freshKey: keyB }), []);
  assert.deepEqual(machine.handle({ type: 'tick', atMillis: 10_999 }), []);
  assert.deepEqual(sends(machine.handle({ type: 'tick', atMillis: 11_000 })), [sent]);
});

test('chia: the journey URL is opened once and never printed', () => {
  const machine = presented();
  const journey = new SensitiveUrl('https://chia.example/h/phs_secret123');
  const actions = [
    ...machine.handle({ type: 'share_tap', atMillis: 0, freshKey: keyA }),
    ...machine.handle({ type: 'share_succeeded', url: journey }),
    ...machine.handle({ type: 'share_tap', atMillis: 1, freshKey: keyB }),
    ...machine.handle({ type: 'foreground' }),
  ];
  assert.equal(actions.filter((a) => a.type === 'open_external_browser').length, 1);
  assert.doesNotMatch(JSON.stringify(actions) + String(journey), /phs_secret123/);
});

const bbParser = new ConnectReturnParser(['https://app.example.com/bb-callback', 'acmewallet://bb-callback']);
const delivered = [
  'https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok',
  'https://app.example.com/bb-callback?sessionId=ses_1&resultCode=ok',
  'https://app.example.com/bb-callback?sessionId=ses_2&resultCode=Ok',
  'https://app.example.com/bb-callback?resultCode=Ok',
  'acmewallet://other-path?sessionId=ses_1&resultCode=Ok',
  'not a url',
];

for (const url of delivered) {
  test(`connect: any delivery from the browser ends its phase and asks about the backend's session (${url})`, () => {
    const machine = new ConnectMachine('https', bbParser, new PollingPolicy(2, 20));
    machine.handle({ type: 'connect_tap', atMillis: 0 });
    machine.handle({ type: 'session_created', sessionId: 'ses_1', hostedUrl: new SensitiveUrl('https://bb.example/s/x'), callback: 'https' });
    const actions = machine.handle({ type: 'browser_return', url, atMillis: 3000 });
    assert.deepEqual(actions.filter((a) => a.type === 'fetch_session'), [{ type: 'fetch_session', sessionId: 'ses_1' }]);
    machine.handle({ type: 'session_state', sessionId: 'ses_1', status: 'cancelled', atMillis: 4000 });
    assert.ok(machine.handle({ type: 'connect_tap', atMillis: 5000 }).some((a) => a.type === 'create_session'));
  });

  test(`connect: a browser delivery into a cold start confirms the kept session before any restore (${url})`, () => {
    const machine = new ConnectMachine('https', bbParser, new PollingPolicy(2, 20), 'ses_1');
    const actions = machine.handle({ type: 'browser_return', url, atMillis: 1000 });
    assert.deepEqual(actions.filter((a) => a.type === 'fetch_session'), [{ type: 'fetch_session', sessionId: 'ses_1' }]);
  });
}

test('connect: a cold start with a kept session and no link restores and confirms it', () => {
  const machine = new ConnectMachine('https', bbParser, new PollingPolicy(2, 20), 'ses_4');
  assert.deepEqual(machine.handle({ type: 'restore', sessionId: null, atMillis: 1000 }), [
    { type: 'render', screen: { content: 'confirming', hint: 'resumed' } },
    { type: 'fetch_session', sessionId: 'ses_4' },
    { type: 'schedule_tick', atMillis: 21_000 },
  ]);
});

test('connect: the session id is persisted, never the hosted URL, and cleared once settled', () => {
  const machine = new ConnectMachine('https', bbParser, new PollingPolicy(2, 20));
  machine.handle({ type: 'connect_tap', atMillis: 0 });
  const opened = machine.handle({ type: 'session_created', sessionId: 'ses_9', hostedUrl: new SensitiveUrl('https://bb.example/s/y'), callback: 'https' });
  assert.deepEqual(opened[0], { type: 'keep_pending_session', sessionId: 'ses_9' });
  machine.handle({ type: 'browser_closed', atMillis: 5000 });
  assert.deepEqual(machine.handle({ type: 'session_state', sessionId: 'ses_9', status: 'ok', atMillis: 6000 })[0], { type: 'forget_pending_session' });
});

function inJourney(): VerificationMachine {
  const machine = new VerificationMachine('kyc', new VerificationReturnParser(['https://partner.example/kyc/done']), new PollingPolicy(2, 30));
  machine.handle({ type: 'verify_tap', atMillis: 0 });
  machine.handle({ type: 'handoff_created', url: new SensitiveUrl('https://verify.privue.example/acme#ticket=t') });
  return machine;
}

test('verification: a close on the return path without verification_id ends the browser phase and confirms', () => {
  const actions = inJourney().handle({ type: 'web_view_return', url: 'https://partner.example/kyc/done?status=approved', atMillis: 3000 });
  assert.deepEqual(actions.map((a) => a.type), ['dismiss_web_view', 'render', 'fetch_status', 'schedule_tick']);
});

test('verification: a foreground while pending asks the backend, one request at a time', () => {
  const machine = inJourney();
  assert.deepEqual(machine.handle({ type: 'foreground', atMillis: 9000 }), [{ type: 'fetch_status', workflow: 'kyc' }]);
  assert.deepEqual(machine.handle({ type: 'foreground', atMillis: 9100 }), []);
  assert.deepEqual(machine.handle({ type: 'status', status: 'in_progress', atMillis: 9500 }), []);
  assert.equal(machine.screen.content, 'in_journey');
  assert.deepEqual(machine.handle({ type: 'foreground', atMillis: 12_000 }), [{ type: 'fetch_status', workflow: 'kyc' }]);
});

test('verification: an OS link that is not a return leaves the journey open; a bare return URL ends it', () => {
  const machine = inJourney();
  assert.deepEqual(machine.handle({ type: 'return_link', url: 'https://partner.example/kyc/done?status=approved', atMillis: 1 }), []);
  assert.deepEqual(machine.handle({ type: 'return_link', url: 'https://partner.example/kyc/done', atMillis: 2 }).map((a) => a.type), [
    'dismiss_web_view', 'render', 'fetch_status', 'schedule_tick',
  ]);
});

// Issue 22: the landing page at the return path links to `https://<returnLanding.openHost><path>`, bare (the
// backend's ReturnLandingPage; Swift's LandingReturnEndToEndTests follows the whole path). `Linking` hands that tap
// to the app as an OS link; registered beside the return URL, it ends the browser phase and the backend answers.
const landingLinks = { bb: 'https://open.app.example.com/bb-callback', privue: 'https://open.app.example.com/kyc/done' };

test('connect: the landing page link, delivered by Linking, ends the browser phase and the backend answers', () => {
  const parser = new ConnectReturnParser(['https://app.example.com/bb-callback', landingLinks.bb, 'acmewallet://bb-callback']);
  const machine = new ConnectMachine('https', parser, new PollingPolicy(2, 20));
  machine.handle({ type: 'connect_tap', atMillis: 0 });
  machine.handle({ type: 'session_created', sessionId: 'ses_7', hostedUrl: new SensitiveUrl('https://bb.example/s/z'), callback: 'https' });
  assert.deepEqual(machine.handle({ type: 'return_link', url: landingLinks.bb, atMillis: 3000 }), [
    { type: 'render', screen: { content: 'confirming', hint: 'unknown' } },
    { type: 'fetch_session', sessionId: 'ses_7' },
    { type: 'schedule_tick', atMillis: 23_000 },
  ]);
  assert.deepEqual(machine.handle({ type: 'session_state', sessionId: 'ses_7', status: 'ok', atMillis: 3100 }), [
    { type: 'forget_pending_session' },
    { type: 'render', screen: { content: 'connected' } },
  ]);
});

test('connect: the landing page link is ignored when the app did not register it', () => {
  const machine = new ConnectMachine('https', bbParser, new PollingPolicy(2, 20));
  machine.handle({ type: 'connect_tap', atMillis: 0 });
  machine.handle({ type: 'session_created', sessionId: 'ses_7', hostedUrl: new SensitiveUrl('https://bb.example/s/z'), callback: 'https' });
  assert.deepEqual(machine.handle({ type: 'return_link', url: landingLinks.bb, atMillis: 3000 }), []);
  assert.equal(machine.screen.content, 'in_browser');
});

test('verification: the landing page link, delivered by Linking, ends the journey and the backend answers', () => {
  const parser = new VerificationReturnParser(['https://partner.example/kyc/done', landingLinks.privue]);
  const machine = new VerificationMachine('kyc', parser, new PollingPolicy(2, 30));
  machine.handle({ type: 'verify_tap', atMillis: 0 });
  machine.handle({ type: 'handoff_created', url: new SensitiveUrl('https://verify.privue.example/acme#ticket=t') });
  assert.deepEqual(machine.handle({ type: 'return_link', url: landingLinks.privue, atMillis: 3000 }), [
    { type: 'dismiss_web_view' },
    { type: 'render', screen: { content: 'confirming' } },
    { type: 'fetch_status', workflow: 'kyc' },
    { type: 'schedule_tick', atMillis: 33_000 },
  ]);
  machine.handle({ type: 'status', status: 'rejected', atMillis: 3100 });
  assert.deepEqual(machine.screen, { content: 'settled', status: 'rejected' });
});
