// The shared Conformance/ vectors, run against the TypeScript shell (a transcription of the Kotlin shell's runners).
import { existsSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { actionLabels, decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaAction, ChiaEvent, ChiaHandoffMachine, screenActionLabels } from '../src/core/chiaMachine';
import {
  ConnectReturnParser,
  GenericReturnParser,
  ReturnUrlRegistrationError,
  VerificationReturnParser,
} from '../src/core/returnLinks';
import { attemptBodyJson, classifyShareOutcome, SensitiveUrl, ShareOutcome } from '../src/core/retry';
import { BatonLinkRouter } from '../src/core/linkRouter';
import { checkInteraction } from './flowRunners';
import { platformChecks } from './platformChecks';

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

/** A link-routing case through `BatonLinkRouter` built from the file's registration (Swift `linkRouting`). */
export function checkLinkRoute(c: J, registration: J): string | null {
  let router: BatonLinkRouter;
  try {
    router = new BatonLinkRouter({
      bankConnect: registration.bb,
      verification: registration.privue,
      genericReturnHost: c.genericReturnApproved === false ? null : registration.genericReturnHost,
    });
  } catch (error) {
    return `the file's registration was refused: ${String(error)}`;
  }
  const actual = router.route(c.url);
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

export interface SharedCase {
  file: string;
  section: string;
  id: string;
  run: (() => string | null | Promise<string | null>) | null;
}

/** Every case of the shared vector files this shell reports on. */
export function sharedCases(): SharedCase[] {
  const cases: SharedCase[] = [];
  const add = (file: string, section: string, c: J, run: SharedCase['run']): void => {
    cases.push({ file, section, id: c.id, run });
  };
  for (const c of load('return-links.v1.json').cases) add('return-links.v1.json', 'return-links', c, () => checkReturnLink(c));
  const routing = load('link-routing.v1.json');
  for (const c of routing.cases) add('link-routing.v1.json', 'link-routing', c, () => checkLinkRoute(c, routing.registration));
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

/** Why a renderer case has no check under node (react-test-renderer draws no pixels and runs no page). */
const NOT_RUN_REASONS: Record<string, string> = {
  'text-200-at-320': 'needs a device renderer at 200% font scale and 320 pt width; react-test-renderer lays nothing out',
  'keyboard-only': "needs a device's focus engine (hardware keyboard, Switch Control); react-test-renderer has none",
  'reduced-motion': "needs the OS's reduce-motion setting on a device; nothing here animates to observe",
  'axe-no-violations': 'axe audits an HTML page; a React Native view tree is not one',
  'no-resource-hints': 'web page only: React Native has no <link> prefetch/preconnect or speculation rules',
  'no-window-open': 'web page only: React Native has no window.open (Chia opens through Linking.openURL)',
  'no-inline-script': 'web page only: the /web/ shell\'s CSP, not part of the React Native package',
};

/** Runs one case: [result, detail]. */
export async function runCase(c: SharedCase): Promise<['passed' | 'failed' | 'not_run', string]> {
  if (c.run === null) return ['not_run', NOT_RUN_REASONS[c.id] ?? 'no executable check for this case in the TypeScript shell'];
  try {
    const failure = await c.run();
    return failure === null ? ['passed', ''] : ['failed', failure];
  } catch (error) {
    return ['failed', String(error)];
  }
}
