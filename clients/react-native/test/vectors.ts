// The shared Conformance/ vectors, run against the TypeScript shell (a transcription of the Kotlin shell's runners).
import { existsSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { actionLabels, decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaAction, ChiaEvent, ChiaHandoffMachine, ChiaScreen, screenActionLabels } from '../src/core/chiaMachine';
import { ConnectAction, ConnectEvent, ConnectMachine, ConnectScreen } from '../src/core/connectMachine';
import { PollingPolicy, RequestFailure } from '../src/core/polling';
import {
  ConnectReturnParser,
  GenericReturnParser,
  ReturnUrlRegistrationError,
  VerificationReturnParser,
} from '../src/core/returnLinks';
import { attemptBodyJson, classifyShareOutcome, PendingAttempt, rfc3339, SensitiveUrl, ShareOutcome } from '../src/core/retry';
import { platformChecks } from './platformChecks';
import { VerificationAction, VerificationEvent, VerificationMachine, VerificationScreen } from '../src/core/verificationMachine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

/** The repository's Conformance/ folder: BATON_CONFORMANCE_DIR, else found above the working directory. */
export function conformanceDir(): string {
  if (process.env.BATON_CONFORMANCE_DIR) return process.env.BATON_CONFORMANCE_DIR;
  let dir = resolve(process.cwd());
  for (;;) {
    if (existsSync(join(dir, 'Conformance/return-links.v1.json'))) return join(dir, 'Conformance');
    const parent = resolve(dir, '..');
    if (parent === dir) throw new Error('Conformance/ not found above the working directory');
    dir = parent;
  }
}

export function load(name: string): J {
  return JSON.parse(readFileSync(join(conformanceDir(), name), 'utf8'));
}

/** Structural JSON equality (key order ignored). */
export function jsonEqual(a: J, b: J): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x: J, i: number) => jsonEqual(x, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
}

/** Why a case still encoding pre-issue-15 behaviour is skipped (clients/superseded-vectors.json), while unchanged. */
export function supersededReason(file: string, vector: J): string | null {
  const path = join(conformanceDir(), '..', 'clients', 'superseded-vectors.json');
  if (!existsSync(path)) return null;
  const entry = JSON.parse(readFileSync(path, 'utf8')).cases.find((c: J) => c.file === file && jsonEqual(c.case, vector));
  return entry ? entry.reason : null;
}

export function checkReturnLink(c: J): string | null {
  let actual: J;
  try {
    if (c.flow === 'connect') {
      const r = new ConnectReturnParser(c.registered).parse(c.url);
      actual = r.accepted ? { isReturn: true, ...r.value } : { isReturn: false, reason: r.reason };
    } else if (c.flow === 'verification') {
      const r = new VerificationReturnParser(c.registered).parse(c.url);
      actual = r.accepted
        ? { isReturn: true, verificationId: r.value.verificationId, status: r.value.statusHint }
        : { isReturn: false, reason: r.reason };
    } else {
      const r = new GenericReturnParser(c.registeredHost).parse(c.url);
      actual = r.accepted ? { isReturn: true, route: r.value } : { isReturn: false, reason: r.reason };
    }
  } catch (error) {
    if (!(error instanceof ReturnUrlRegistrationError)) throw error;
    actual = { usageError: error.code };
  }
  return jsonEqual(actual, c.expect) ? null : `got ${JSON.stringify(actual)}`;
}

export function checkRetry(c: J, nowMillis: number): string | null {
  const o = c.outcome;
  const outcome: ShareOutcome =
    o.transport !== undefined ? { kind: 'transport', failure: o.transport } : { kind: 'response', status: o.status, retryAfter: o.retryAfter ?? null };
  const actual = classifyShareOutcome(outcome, nowMillis);
  return jsonEqual(actual, c.expect) ? null : `got ${JSON.stringify(actual)}`;
}

export function patched(node: J, keys: string[], op: string, value: J): J {
  if (keys.length === 0) return value;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const copy = { ...node };
  if (keys.length === 1) {
    if (op === 'remove') delete copy[keys[0]];
    else copy[keys[0]] = value;
  } else if (keys[0] in copy) {
    copy[keys[0]] = patched(copy[keys[0]], keys.slice(1), op, value);
  }
  return copy;
}

function applyPatch(card: J, patch: J[]): J {
  return patch.reduce((acc, op) => patched(acc, op.path.split('/').slice(1), op.op, op.value), card);
}

export function checkDecision(c: J, cards: J): string | null {
  const decoded = decodeCatalogCard(applyPatch(cards[c.card], c.patch));
  if ((decoded !== null) !== c.expect.rendered) return decoded === null ? 'did not decode' : 'decoded';
  const labels = decoded === null ? [] : actionLabels(decoded.handoff);
  return jsonEqual(labels, c.expect.actions) ? null : `actions ${JSON.stringify(labels)}`;
}

/** GET /v2/catalog's card per projection name of renderer-conformance.v1.json (absent: not listed). */
export function projections(document: J): Record<string, J> {
  const result: Record<string, J> = { ...document.fixtures.cards, absent: null };
  for (const [name, derived] of Object.entries<J>(document.fixtures.derived)) {
    result[name] = applyPatch(document.fixtures.cards[derived.card], derived.patch);
  }
  return result;
}

/** A renderer-conformance interaction case through the clientVocabulary (see the Kotlin RendererInteraction). */
export function checkRendererInteraction(c: J, projectionCards: Record<string, J>): string | null {
  const machine = new ChiaHandoffMachine(projectionCards[c.card ?? 'share'].id, null);
  let now = Date.parse('2026-01-01T00:00:00Z');
  let keys = 0;
  let journeys = 0;
  let lastPost: [string, string] | null = null;
  let scheduled: number | null = null;
  for (const [index, step] of (c.steps as J[]).entries()) {
    now += 60_000;
    const effects: ChiaAction[] = [];
    const send = (event: ChiaEvent): void => {
      const actions = machine.handle(event);
      for (const a of actions) if (a.type === 'schedule_tick') scheduled = a.atMillis;
      effects.push(...actions);
    };
    if (scheduled !== null && scheduled <= now) {
      scheduled = null;
      machine.handle({ type: 'tick', atMillis: now });
    }
    const projection = (): ChiaEvent => ({ type: 'projection', card: decodeCatalogCard(projectionCards[step.projection]) });
    let journeyUrl: string | null = null;
    switch (step.event) {
      case 'tap_cta':
        send({ type: 'cta' });
        send(projection());
        break;
      case 'tap_share': {
        for (let t = 0; t < (step.taps ?? 1); t++) {
          keys += 1;
          send({ type: 'share_tap', atMillis: now, freshKey: `00000000-0000-4000-8000-${String(keys).padStart(12, '0')}` });
        }
        const respond = step.respond;
        if (respond.transport !== undefined) {
          send({ type: 'share_failed', outcome: { kind: 'transport', failure: respond.transport }, atMillis: now });
        } else if (respond.status >= 200 && respond.status <= 299) {
          journeys += 1;
          journeyUrl = `https://chia.test/h/phs_journey${journeys}`;
          send({ type: 'share_succeeded', url: new SensitiveUrl(journeyUrl) });
        } else {
          send({ type: 'share_failed', outcome: { kind: 'response', status: respond.status, retryAfter: respond.retryAfter ?? null }, atMillis: now });
        }
        if (effects.some((a) => a.type === 'fetch_projection')) send(projection());
        break;
      }
      case 'tap_without_sharing':
      case 'tap_neutral':
        send({ type: 'continue_tap' });
        break;
      case 'restore':
        send({ type: 'foreground' });
        send(projection());
        break;
      default:
        return `step ${index}: unknown event ${step.event}`;
    }
    const expect = step.expect;
    const requests = effects.flatMap((a) =>
      a.type === 'fetch_projection' ? ['GET /v2/catalog'] : a.type === 'send_share_request' ? ['POST /v2/handoff-sessions'] : [],
    );
    if (expect.requests !== undefined && !jsonEqual(requests, expect.requests)) return `step ${index}: requests ${JSON.stringify(requests)}`;
    const posts = effects.flatMap((a) => (a.type === 'send_share_request' ? [a.attempt] : []));
    if (expect.shareRequest !== undefined) {
      if (posts.length === 0) return `step ${index}: no share request`;
      const key = lastPost !== null && lastPost[0] === posts[0].key ? 'kept' : 'new';
      const body = lastPost !== null && lastPost[1] === attemptBodyJson(posts[0]) ? 'kept' : 'new';
      if (key !== expect.shareRequest.key || body !== expect.shareRequest.body) return `step ${index}: key ${key} body ${body}`;
    }
    if (posts.length > 0) lastPost = [posts[posts.length - 1].key, attemptBodyJson(posts[posts.length - 1])];
    const pending = machine.pending === null ? 'none' : 'kept';
    if (expect.pending !== undefined && pending !== expect.pending) return `step ${index}: pending ${pending}`;
    const navigations = effects.flatMap((a) =>
      a.type === 'open_external_browser' ? [a.url.reveal() === journeyUrl ? 'journey' : 'neutral'] : [],
    );
    if (expect.navigations !== undefined && !jsonEqual(navigations, expect.navigations)) {
      return `step ${index}: navigations ${JSON.stringify(navigations)}`;
    }
    const screen = machine.screen;
    if (expect.actions !== undefined && !jsonEqual(screenActionLabels(screen), expect.actions)) {
      return `step ${index}: actions ${JSON.stringify(screenActionLabels(screen))}`;
    }
    if (expect.actionsEnabled !== undefined) {
      const share = screen.card?.handoff.mode === 'share_or_neutral';
      const enabled = screen.continueEnabled && (!share || screen.shareEnabled);
      if (enabled !== expect.actionsEnabled) return `step ${index}: actionsEnabled ${enabled}`;
    }
  }
  return null;
}

const at = (e: J): number => Date.parse(e.at);
const failure = (text: string): RequestFailure => (text === 'retryable' ? 'retryable' : 'definitive');

export function chiaRender(screen: ChiaScreen): J {
  const labels = screenActionLabels(screen);
  const enabled: string[] = [];
  if (screen.shareEnabled && labels.includes('Share selection and continue')) enabled.push('share');
  if (screen.continueEnabled && labels.length > 0) enabled.push('continue');
  const result: J = { render: screen.content, actions: labels, enabled };
  if (screen.notice !== null) result.notice = screen.notice;
  return result;
}

function chiaRunner(config: J, cards: J): (event: J) => J[] {
  const generic = config.genericReturnHost ? new GenericReturnParser(config.genericReturnHost) : null;
  let machine = new ChiaHandoffMachine(config.catalogItemId, generic);
  let stored: PendingAttempt | null = null;
  const body = (attempt: PendingAttempt): J => JSON.parse(attemptBodyJson(attempt));
  return (e) => {
    let input: ChiaEvent;
    switch (e.type) {
      case 'cta': input = { type: 'cta' }; break;
      case 'projection': input = { type: 'projection', card: e.card === null ? null : decodeCatalogCard(cards[e.card]) }; break;
      case 'projection_failed': input = { type: 'projection_failed' }; break;
      case 'share_tap': input = { type: 'share_tap', atMillis: at(e), freshKey: e.freshKey }; break;
      case 'continue_tap': input = { type: 'continue_tap' }; break;
      case 'share_response':
        if (e.transport !== undefined) input = { type: 'share_failed', outcome: { kind: 'transport', failure: e.transport }, atMillis: at(e) };
        else if (e.status >= 200 && e.status <= 299) input = { type: 'share_succeeded', url: new SensitiveUrl(e.url) };
        else input = { type: 'share_failed', outcome: { kind: 'response', status: e.status, retryAfter: e.retryAfter ?? null }, atMillis: at(e) };
        break;
      case 'signed_in': input = { type: 'signed_in' }; break;
      case 'sign_in_failed': input = { type: 'sign_in_failed' }; break;
      case 'browser_failed': input = { type: 'browser_failed' }; break;
      case 'return_link': input = { type: 'return_link', url: e.url }; break;
      case 'background': input = { type: 'background' }; break;
      case 'foreground': input = { type: 'foreground' }; break;
      case 'tick': input = { type: 'tick', atMillis: at(e) }; break;
      case 'restart':
        machine = new ChiaHandoffMachine(config.catalogItemId, generic);
        input = { type: 'restored', attempt: stored };
        break;
      default: throw new Error(`unknown chia event ${e.type}`);
    }
    return machine.handle(input).map((a): J => {
      switch (a.type) {
        case 'render': return chiaRender(a.screen);
        case 'fetch_projection': return { request: 'GET /v2/catalog' };
        case 'save_pending_attempt':
          stored = a.attempt;
          return { persist: 'save', idempotencyKey: a.attempt.key, body: body(a.attempt) };
        case 'send_share_request': return { request: 'POST /v2/handoff-sessions', idempotencyKey: a.attempt.key, body: body(a.attempt) };
        case 'discard_pending_attempt':
          stored = null;
          return { persist: 'discard' };
        case 'open_external_browser': return { navigate: 'external', url: a.url.reveal() };
        case 'schedule_tick': return { tick: rfc3339(a.atMillis) };
        case 'route_to_marketplace_home': return { route: 'marketplace-home' };
        case 'sign_in_again': return { request: 'sign_in' };
      }
    });
  };
}

function connectRender(screen: ConnectScreen): J {
  const result: J = { render: screen.content };
  if (screen.content === 'could_not_start') result.failure = screen.failure;
  if (screen.content === 'confirming') result.hint = screen.hint;
  return result;
}

function connectRunner(config: J): (event: J) => J[] {
  const cb = config.callback;
  const caught = cb.kind === 'https' ? `https://${cb.host}${cb.path}` : cb.scheme;
  const machine = new ConnectMachine(cb.kind, new ConnectReturnParser(config.registered), new PollingPolicy(config.polling.interval, config.polling.timeout));
  return (e) => {
    let input: ConnectEvent;
    switch (e.type) {
      case 'connect_tap': input = { type: 'connect_tap', atMillis: at(e) }; break;
      case 'session_created': input = { type: 'session_created', sessionId: e.sessionId, hostedUrl: new SensitiveUrl(e.hostedUrl), callback: e.callback }; break;
      case 'session_failed': input = { type: 'session_failed', failure: failure(e.failure) }; break;
      case 'return_link': input = { type: 'return_link', url: e.url, atMillis: at(e) }; break;
      case 'browser_closed': input = { type: 'browser_closed', atMillis: at(e) }; break;
      case 'session_state': input = { type: 'session_state', sessionId: e.sessionId, status: e.status, atMillis: at(e) }; break;
      case 'session_state_failed': input = { type: 'session_state_failed', failure: failure(e.failure), atMillis: at(e) }; break;
      case 'background': input = { type: 'background' }; break;
      case 'foreground': input = { type: 'foreground', atMillis: at(e) }; break;
      case 'restore': input = { type: 'restore', sessionId: e.sessionId ?? null, atMillis: at(e) }; break;
      case 'tick': input = { type: 'tick', atMillis: at(e) }; break;
      default: throw new Error(`unknown connect event ${e.type}`);
    }
    return machine.handle(input).flatMap((a: ConnectAction): J[] => {
      switch (a.type) {
        case 'render': return [connectRender(a.screen)];
        case 'create_session': return [{ request: 'POST /v2/connect-sessions', callback: a.callback }];
        // The external browser is reported in the shared vocabulary of the BB browser session.
        case 'open_browser': return [{ navigate: 'authentication_session', url: a.url.reveal(), callback: caught }];
        case 'fetch_session': return [{ request: `GET /v2/connect-sessions/${a.sessionId}` }];
        case 'schedule_tick': return [{ tick: rfc3339(a.atMillis) }];
        // Persisting the opaque session id is not in the shared vocabulary (the flow-rules tests check it).
        case 'save_pending_session':
        case 'clear_pending_session':
          return [];
      }
    });
  };
}

function verificationRender(screen: VerificationScreen): J {
  const result: J = { render: screen.content };
  if (screen.content === 'could_not_start') result.failure = screen.failure;
  if (screen.content === 'confirming' && screen.landingHint !== undefined) result.landingHint = screen.landingHint;
  if (screen.content === 'settled') result.status = screen.status;
  return result;
}

function verificationRunner(config: J): (event: J) => J[] {
  const machine = new VerificationMachine(
    config.workflow, new VerificationReturnParser(config.registered), new PollingPolicy(config.polling.interval, config.polling.timeout));
  return (e) => {
    let input: VerificationEvent;
    switch (e.type) {
      case 'verify_tap': input = { type: 'verify_tap', atMillis: at(e) }; break;
      case 'handoff_created': input = { type: 'handoff_created', url: new SensitiveUrl(e.url) }; break;
      case 'handoff_failed': input = { type: 'handoff_failed', failure: failure(e.failure) }; break;
      case 'return_link': input = { type: 'return_link', url: e.url, atMillis: at(e) }; break;
      case 'browser_closed': input = { type: 'browser_closed', atMillis: at(e) }; break;
      case 'status': input = { type: 'status', status: e.status, atMillis: at(e) }; break;
      case 'status_failed': input = { type: 'status_failed', failure: failure(e.failure), atMillis: at(e) }; break;
      case 'background': input = { type: 'background' }; break;
      case 'foreground': input = { type: 'foreground', atMillis: at(e) }; break;
      case 'restore': input = { type: 'restore', atMillis: at(e) }; break;
      case 'tick': input = { type: 'tick', atMillis: at(e) }; break;
      default: throw new Error(`unknown verification event ${e.type}`);
    }
    return machine.handle(input).flatMap((a: VerificationAction): J[] => {
      switch (a.type) {
        case 'render': return [verificationRender(a.screen)];
        case 'request_handoff': return [{ request: 'POST /v2/verification-handoffs', workflow: a.workflow }];
        case 'present_camera_web_view': return [{ navigate: 'camera_web_view', url: a.url.reveal() }];
        case 'fetch_status': return [{ request: `GET /v2/verifications/${a.workflow}` }];
        case 'schedule_tick': return [{ tick: rfc3339(a.atMillis) }];
        // Closing the web view is the presenter's side of ending the browser phase (not in the vocabulary).
        case 'dismiss_web_view': return [];
      }
    });
  };
}

export function checkInteraction(c: J, cards: J): string | null {
  const run = c.flow === 'chia' ? chiaRunner(c.config, cards) : c.flow === 'verification' ? verificationRunner(c.config) : connectRunner(c.config);
  for (const [index, step] of (c.steps as J[]).entries()) {
    const effects = run(step.event);
    if (!jsonEqual(effects, step.expect)) return `step ${index} ${JSON.stringify(step.event)}: got ${JSON.stringify(effects)}`;
  }
  return null;
}

export interface SharedCase {
  file: string;
  section: string;
  id: string;
  run: (() => string | null | Promise<string | null>) | null;
  skip: string | null;
}

/** Every case of the shared vector files this shell reports on. */
export function sharedCases(): SharedCase[] {
  const cases: SharedCase[] = [];
  const add = (file: string, section: string, c: J, run: SharedCase['run']): void => {
    cases.push({ file, section, id: c.id, run, skip: supersededReason(file, c) });
  };
  for (const c of load('return-links.v1.json').cases) add('return-links.v1.json', 'return-links', c, () => checkReturnLink(c));
  const retry = load('retry-classification.v1.json');
  for (const c of retry.cases) add('retry-classification.v1.json', 'retry-classification', c, () => checkRetry(c, Date.parse(retry.now)));
  const renderer = load('renderer-conformance.v1.json');
  for (const c of renderer.decision) add('renderer-conformance.v1.json', 'decision', c, () => checkDecision(c, renderer.fixtures.cards));
  const cards = projections(renderer);
  for (const c of renderer.interaction) add('renderer-conformance.v1.json', 'interaction', c, () => checkRendererInteraction(c, cards));
  for (const section of ['accessibility', 'forbidden']) {
    for (const c of renderer[section]) {
      const check = platformChecks[c.id];
      add('renderer-conformance.v1.json', section, c, check === undefined ? null : () => check(renderer));
    }
  }
  const interaction = load('interaction.v1.json');
  for (const c of interaction.cases) add('interaction.v1.json', 'interaction-flows', c, () => checkInteraction(c, interaction.cards));
  return cases;
}

/** Runs one case: [result, detail]. */
export async function runCase(c: SharedCase): Promise<['passed' | 'failed' | 'not_run', string]> {
  if (c.skip !== null) return ['not_run', c.skip];
  if (c.run === null) return ['not_run', 'no executable check for this case in the TypeScript shell'];
  try {
    const failure = await c.run();
    return failure === null ? ['passed', ''] : ['failed', failure];
  } catch (error) {
    return ['failed', String(error)];
  }
}
