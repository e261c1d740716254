// interaction.v1.json's flow runners: each vector event into a machine event, each action into the shared vocabulary.
import { decodeCatalogCard } from '../src/core/catalogCard';
import { ChiaEvent, ChiaHandoffMachine, ChiaScreen, screenActionLabels } from '../src/core/chiaMachine';
import { ConnectAction, ConnectEvent, ConnectMachine, ConnectScreen } from '../src/core/connectMachine';
import { PollingPolicy, RequestFailure } from '../src/core/polling';
import { ConnectReturnParser, GenericReturnParser, VerificationReturnParser } from '../src/core/returnLinks';
import { attemptBodyJson, PendingAttempt, rfc3339, SensitiveUrl } from '../src/core/retry';
import { VerificationAction, VerificationEvent, VerificationMachine, VerificationScreen } from '../src/core/verificationMachine';
import { jsonEqual } from './vectors';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

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
        case 'request_sign_in': return { signIn: 'required' };
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
  const parser = new ConnectReturnParser(config.registered);
  const polling = new PollingPolicy(config.polling.interval, config.polling.timeout);
  let kept: string | null = null;
  let machine = new ConnectMachine(cb.kind, parser, polling);
  return (e) => {
    let input: ConnectEvent;
    switch (e.type) {
      case 'connect_tap': input = { type: 'connect_tap', atMillis: at(e) }; break;
      case 'session_created': input = { type: 'session_created', sessionId: e.sessionId, hostedUrl: new SensitiveUrl(e.hostedUrl), callback: e.callback }; break;
      case 'session_failed': input = { type: 'session_failed', failure: failure(e.failure) }; break;
      case 'return_link': input = { type: 'return_link', url: e.url, atMillis: at(e) }; break;
      case 'sheet_return': input = { type: 'browser_return', url: e.url, atMillis: at(e) }; break;
      case 'cold_launch':
        // A new process: a new machine given only the session id the store kept.
        machine = new ConnectMachine(cb.kind, parser, polling, kept);
        return [connectRender(machine.screen)];
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
        case 'keep_pending_session':
          kept = a.sessionId;
          return [{ persist: 'keep_session', sessionId: a.sessionId }];
        case 'forget_pending_session':
          kept = null;
          return [{ persist: 'forget_session' }];
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
      case 'web_view_return': input = { type: 'web_view_return', url: e.url, atMillis: at(e) }; break;
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
