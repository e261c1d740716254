// The nine journeys of `baton demo` (Sources/BatonCLI/Demo/DemoWalk.swift), walked by the package's own flows —
// the hooks' logic (createChiaHandoff / createVerification / createBankConnect), FetchBackendClient and the flow
// machines — against a live `baton serve --sandbox` this program starts, with the browser played by the headless
// browser of ./headless.ts. Each journey must end as DemoWalk's does; the program exits 1 when any does not.
// Run by clients/react-native/scripts/walk-journeys (from scripts/test-clients, so `make test` runs it).
import { BackendRequest, BackendTransport, fetchTransport } from '../../src/backend/BackendTransport';
import { BatonConfiguration, BatonStorage } from '../../src/configuration';
import { ChiaScreen } from '../../src/core/chiaMachine';
import { ConnectScreen } from '../../src/core/connectMachine';
import { DEVELOPMENT_URL_POLICY } from '../../src/core/urlPolicy';
import { VerificationScreen } from '../../src/core/verificationMachine';
import { createBankConnect, createChiaHandoff, createVerification } from '../../src/flows';
import { HeadlessAuthSession, HeadlessCameraWebView, HeadlessExternalBrowser, InFlight, BbOutcome } from './headless';
import { Sandbox } from './sandbox';

const USER = 'demo_user';
const SHARE_ITEM = 'cat_weight_care';
const WORKFLOW = 'merchant-onboarding';
const PRIVUE_RETURN = 'https://app.example.com/kyc/done';
const BB_RETURNS = { https: 'https://app.example.com/bb-callback', customScheme: 'acmewallet://bb-callback' };
const WAIT_MILLIS = 30000;

class MemoryStorage implements BatonStorage {
  readonly items = new Map<string, string>();
  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.items.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.items.delete(key);
  }
}

/** The backend transport, recording each request's method, path and Idempotency-Key (never a header else). */
function recording(inFlight: InFlight): { transport: BackendTransport; requests: Array<{ method: string; path: string; key: string | null }> } {
  const requests: Array<{ method: string; path: string; key: string | null }> = [];
  const inner = fetchTransport({ timeoutMillis: 20000 });
  return {
    requests,
    transport: (request: BackendRequest) => {
      requests.push({ method: request.method, path: request.url.replace(/^https?:\/\/[^/]+/, ''), key: request.headers['Idempotency-Key'] ?? null });
      return inFlight.track(inner(request));
    },
  };
}

/** Waits (bounded) until `condition` holds and nothing is in flight; checks on each turn of the event loop. */
async function until(what: string, condition: () => boolean, inFlight: InFlight): Promise<void> {
  const deadline = Date.now() + WAIT_MILLIS;
  while (!(condition() && inFlight.idle)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface App {
  inFlight: InFlight;
  configuration: BatonConfiguration;
  requests: Array<{ method: string; path: string; key: string | null }>;
}

async function app(sandbox: Sandbox, user: string): Promise<App> {
  const token = await sandbox.token(user);
  const inFlight = new InFlight();
  const { transport, requests } = recording(inFlight);
  const configuration: BatonConfiguration = {
    backendUrl: sandbox.backend,
    tokenProvider: () => token,
    userId: user,
    storage: new MemoryStorage(),
    returnUrls: { privue: [PRIVUE_RETURN], bb: BB_RETURNS },
    urlPolicy: DEVELOPMENT_URL_POLICY,
    transport,
  };
  return { inFlight, configuration, requests };
}

type Log = (line: string) => void;

async function chia(sandbox: Sandbox, log: Log, act: 'share' | 'continue' | 'double' | 'retry'): Promise<boolean> {
  if (act === 'retry') {
    const fault = await sandbox.call('POST', `${sandbox.chia}/_sandbox/faults`, { endpoint: 'POST /v2/handoff-sessions', fault: 'status', status: 503, count: 3 });
    if (fault.status !== 201) throw new Error(`fault injection answered ${fault.status}`);
    log('sandbox: Chia answers the next 3 share calls with 503 (outlasting the backend\'s retries)');
  }
  const { inFlight, configuration, requests } = await app(sandbox, USER);
  const browser = new HeadlessExternalBrowser(inFlight);
  const screens: ChiaScreen[] = [];
  const flow = createChiaHandoff(configuration, SHARE_ITEM, { openExternal: browser.open }, (s) => screens.push(s));
  const controller = flow.controller;
  await flow.start();
  log(`tap: catalog card ${SHARE_ITEM}: call to action`);
  controller.callToActionTapped();
  await until('the projection', () => !['card', 'loading'].includes(controller.screen.content), inFlight);
  if (controller.screen.content !== 'share_or_neutral') {
    log(`screen: no share_or_neutral handoff (${controller.screen.content})`);
    return false;
  }
  const shares = () => requests.filter((r) => r.method === 'POST' && r.path === '/v2/handoff-sessions');
  switch (act) {
    case 'share':
      log('tap: Share selection and continue');
      controller.shareTapped();
      break;
    case 'continue':
      log('tap: Continue without sharing');
      controller.continueTapped();
      break;
    case 'double':
      log('tap: Share selection and continue ×2 (at once)');
      controller.shareTapped();
      controller.shareTapped();
      break;
    case 'retry':
      log('tap: Share selection and continue');
      controller.shareTapped();
      await until('the failed share', () => shares().length === 1 && controller.screen.notice !== null, inFlight);
      log(`screen: notice ${controller.screen.notice}: the exact body and key are kept`);
      await until('share enabled again', () => controller.screen.shareEnabled && controller.screen.notice === 'share_uncertain', inFlight);
      log('tap: Share selection and continue (retry)');
      controller.shareTapped();
      break;
  }
  await until('the journey', () => browser.presentations.length > 0, inFlight);
  controller.stop();
  const pages = browser.presentations.map((p) => p.firstPage);
  log(`browser: external, first page ${JSON.stringify(pages)}`);
  const keys = shares().map((r) => r.key);
  switch (act) {
    case 'share':
      return JSON.stringify(pages) === '["chia-journey"]';
    case 'continue':
      return JSON.stringify(pages) === '["chia-neutral"]' && keys.length === 0;
    case 'double':
      log(`check: ${keys.length} share request, ${pages.length} journey opened`);
      return keys.length === 1 && pages.length === 1;
    case 'retry': {
      const same = keys.length === 2 && keys[0] === keys[1] && keys[0] !== null;
      log(`check: ${same ? 'the retry reused the same Idempotency-Key' : `keys ${keys.length}, not the same`}`);
      return same && JSON.stringify(pages) === '["chia-journey"]';
    }
  }
}

async function privue(sandbox: Sandbox, log: Log, user: string, expireTicketFirst: boolean): Promise<boolean> {
  const { inFlight, configuration } = await app(sandbox, user);
  const presenter = new HeadlessCameraWebView(inFlight, [PRIVUE_RETURN]);
  let moved = 0;
  presenter.then('approved', async () => {
    if (!expireTicketFirst) return;
    log("wait: the user waits past the ticket's 120 s (sandbox clock +121 s)");
    await sandbox.advanceClock(121);
    moved = 121;
  });
  const screens: VerificationScreen[] = [];
  const controller = createVerification(configuration, WORKFLOW, presenter, (s) => screens.push(s));
  log('tap: Verify');
  controller.verifyTapped();
  try {
    await until('a settled verification', () => ['settled', 'check_later', 'could_not_start'].includes(controller.screen.content), inFlight);
  } finally {
    // Put the sandbox's clock back: the backend keeps serving it after the walk.
    if (moved !== 0) await sandbox.advanceClock(-moved);
    controller.stop();
  }
  const presentation = presenter.presentations[0];
  log(`browser: camera web view, first page ${presentation?.firstPage}, signed in ${JSON.stringify(presentation?.signIn)}`);
  const screen = controller.screen;
  log(`outcome: ${JSON.stringify(screen)}`);
  const expected = expireTicketFirst ? { how: 'mobile_number', reason: 'ticket_expired' } : { how: 'ticket' };
  return screen.content === 'settled' && screen.status === 'approved' && JSON.stringify(presentation?.signIn) === JSON.stringify(expected);
}

async function connect(sandbox: Sandbox, log: Log, outcome: BbOutcome, expected: ConnectScreen['content']): Promise<boolean> {
  const { inFlight, configuration } = await app(sandbox, USER);
  const adapter = new HeadlessAuthSession(inFlight).then(outcome);
  const screens: ConnectScreen[] = [];
  const controller = createBankConnect(configuration, adapter, true, (s) => screens.push(s));
  log('tap: Connect');
  controller.connectTapped();
  const ended = ['connected', 'failed', 'expired', 'cancelled', 'check_later', 'could_not_start'];
  try {
    await until('an ended connect screen', () => adapter.presentations.length > 0 && ended.includes(controller.screen.content), inFlight);
  } finally {
    // Stops the bounded polling a closed sheet leaves running.
    controller.stop();
  }
  const presentation = adapter.presentations[0];
  log(`browser: auth session, first page ${presentation?.firstPage}, ${presentation?.completion}`);
  log(`outcome: ${JSON.stringify(controller.screen)}`);
  return controller.screen.content === expected;
}

const JOURNEYS: Array<{ title: string; run: (sandbox: Sandbox, log: Log) => Promise<boolean> }> = [
  { title: 'Chia: share selection and continue', run: (s, l) => chia(s, l, 'share') },
  { title: 'Chia: continue without sharing', run: (s, l) => chia(s, l, 'continue') },
  { title: 'Chia: a double tap opens one journey', run: (s, l) => chia(s, l, 'double') },
  { title: 'Chia: retry after an injected 503 reuses its key', run: (s, l) => chia(s, l, 'retry') },
  { title: 'Privue: verification approved', run: (s, l) => privue(s, l, USER, false) },
  { title: 'Privue: an expired handoff falls back to the mobile number', run: (s, l) => privue(s, l, `${USER}_late`, true) },
  { title: 'BB: connect Ok', run: (s, l) => connect(s, l, { complete: 'Ok' }, 'connected') },
  { title: 'BB: connect Cancelled', run: (s, l) => connect(s, l, { complete: 'Cancelled' }, 'cancelled') },
  { title: 'BB: sheet closed without a return', run: (s, l) => connect(s, l, { close: true }, 'cancelled') },
];

async function main(): Promise<void> {
  const sandbox = await Sandbox.start();
  let passed = 0;
  try {
    process.stdout.write(`journeys: baton serve --sandbox on 127.0.0.1:${sandbox.port}\n`);
    for (const [index, journey] of JOURNEYS.entries()) {
      process.stdout.write(`[${index + 1}/${JOURNEYS.length}] ${journey.title}\n`);
      let ok = false;
      try {
        ok = await journey.run(sandbox, (line) => process.stdout.write(`    ${line}\n`));
      } catch (error) {
        process.stdout.write(`    error: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      process.stdout.write(`    result: ${ok ? '✓ ended as expected' : '✗ did not end as expected'}\n`);
      if (ok) passed += 1;
    }
  } finally {
    await sandbox.stop();
  }
  process.stdout.write(`typescript journeys: ${passed}/${JOURNEYS.length} ended as Swift's DemoWalk\n`);
  process.exitCode = passed === JOURNEYS.length ? 0 : 1;
}

main().catch((error) => {
  process.stdout.write(`typescript journeys: could not run (${error instanceof Error ? error.message : String(error)})\n`);
  process.exitCode = 1;
});
