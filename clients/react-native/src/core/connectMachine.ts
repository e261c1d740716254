import { PollingPolicy, PollSchedule, RequestFailure } from './polling';
import { ConnectReturn, ConnectReturnParser } from './returnLinks';
import { SensitiveUrl } from './retry';

/** The callback kind a device catches for BB (`POST /v2/connect-sessions` body). */
export type ConnectCallbackKind = 'https' | 'custom-scheme';

/** BB session statuses, as `GET /v2/connect-sessions/{sessionId}` reports them (any other is a malformed answer). */
export type ConnectSessionStatus = 'pending' | 'ok' | 'error' | 'cancelled' | 'expired';

/**
 * What the redirect claimed (a UX signal only): `resultCode` Ok/Error/Cancelled, `resumed` (no redirect: the app
 * restarted with a session pending) or `unknown` (a delivery the app cannot use; the backend is asked all the same).
 */
export type ConnectReturnHint = 'ok' | 'error' | 'cancelled' | 'resumed' | 'unknown';

/** What the BB connect screen shows (Swift `ConnectScreen`), discriminated by `content`. */
export type ConnectScreen =
  /** The `Connect` action, usable. */
  | { content: 'ready' }
  /** Creating the connect session. */
  | { content: 'starting' }
  /** The authentication session is open. */
  | { content: 'in_browser' }
  /** The session could not be created (or not for a callback this device catches); `Connect` can be tapped again. */
  | { content: 'could_not_start'; failure: RequestFailure }
  /** A return arrived (`hint`); asking the backend for the real outcome. */
  | { content: 'confirming'; hint: ConnectReturnHint }
  /** Closed without a return: the cancelled path, while the backend is still asked. */
  | { content: 'cancelled' }
  /** The backend confirmed a connection. */
  | { content: 'connected' }
  /** The backend reports the flow failed. */
  | { content: 'failed' }
  /** The backend reports the session expired unfinished. */
  | { content: 'expired' }
  /** The backend did not settle in time: "check later", never a guess. */
  | { content: 'check_later' };

export type ConnectEvent =
  | { type: 'connect_tap'; atMillis: number }
  | { type: 'session_created'; sessionId: string; hostedUrl: SensitiveUrl; callback: ConnectCallbackKind }
  | { type: 'session_failed'; failure: RequestFailure }
  /** A link the OS delivered (a `Linking` URL event) while no browser delivery was due. */
  | { type: 'return_link'; url: string; atMillis: number }
  /** The browser's own delivery: a link that arrived while the browser was open (or into a cold start). */
  | { type: 'browser_return'; url: string; atMillis: number }
  /** The auth session ended without a return: closed by the user, failed, or never opened. */
  | { type: 'browser_closed'; atMillis: number }
  | { type: 'session_state'; sessionId: string; status: ConnectSessionStatus; atMillis: number }
  | { type: 'session_state_failed'; failure: RequestFailure; atMillis: number }
  | { type: 'background' }
  | { type: 'foreground'; atMillis: number }
  | { type: 'restore'; sessionId: string | null; atMillis: number }
  | { type: 'tick'; atMillis: number };

export type ConnectAction =
  | { type: 'render'; screen: ConnectScreen }
  | { type: 'create_session'; callback: ConnectCallbackKind }
  | { type: 'open_browser'; url: SensitiveUrl }
  | { type: 'fetch_session'; sessionId: string }
  | { type: 'schedule_tick'; atMillis: number }
  | { type: 'keep_pending_session'; sessionId: string }
  | { type: 'forget_pending_session' };

type Phase = 'ready' | 'resumable' | 'creating' | 'in_browser' | 'could_not_start' | 'confirming' | 'settled';

/**
 * The BB connect flow (seed 002), transcribed from the Kotlin shell's `ConnectMachine` (which mirrors BatonClient's):
 * the browser's own delivery (an accepted or refused link) or a close ends the browser phase and asks the backend
 * about the session id the backend returned; an OS link keeps AppAuth's checks, a bare registered return URL being
 * the one refused link that counts; the pending session id (never the hosted URL) is kept so a cold start confirms it.
 */
export class ConnectMachine {
  private phase: Phase;
  private sessionId: string | null;
  private shown: ConnectScreen = { content: 'ready' };
  private schedule: PollSchedule | null = null;

  constructor(
    private readonly callbackKind: ConnectCallbackKind,
    private readonly parser: ConnectReturnParser,
    private readonly polling: PollingPolicy = new PollingPolicy(),
    storedPendingSessionId: string | null = null,
  ) {
    this.sessionId = storedPendingSessionId === '' ? null : storedPendingSessionId;
    this.phase = this.sessionId === null ? 'ready' : 'resumable';
  }

  get screen(): ConnectScreen {
    switch (this.phase) {
      case 'ready':
      case 'resumable':
        return { content: 'ready' };
      case 'creating':
        return { content: 'starting' };
      case 'in_browser':
        return { content: 'in_browser' };
      default:
        return this.shown;
    }
  }

  /** The session the flow waits on or kept, if any. */
  get pendingSessionId(): string | null {
    return ['in_browser', 'confirming', 'resumable'].includes(this.phase) ? this.sessionId : null;
  }

  handle(event: ConnectEvent): ConnectAction[] {
    switch (event.type) {
      case 'connect_tap':
        if (!['ready', 'resumable', 'could_not_start', 'settled'].includes(this.phase)) return [];
        this.phase = 'creating';
        this.sessionId = null;
        return [{ type: 'render', screen: this.screen }, { type: 'create_session', callback: this.callbackKind }];
      case 'session_created':
        if (this.phase !== 'creating') return [];
        if (event.callback !== this.callbackKind) {
          this.phase = 'could_not_start';
          this.shown = { content: 'could_not_start', failure: 'definitive' };
          return [{ type: 'render', screen: this.screen }];
        }
        this.phase = 'in_browser';
        this.sessionId = event.sessionId;
        return [
          { type: 'keep_pending_session', sessionId: event.sessionId },
          { type: 'render', screen: this.screen },
          { type: 'open_browser', url: event.hostedUrl },
        ];
      case 'session_failed':
        if (this.phase !== 'creating') return [];
        this.phase = 'could_not_start';
        this.shown = { content: 'could_not_start', failure: event.failure };
        return [{ type: 'render', screen: this.screen }];
      case 'return_link':
        return this.receiveOsReturn(event.url, event.atMillis);
      case 'browser_return':
        return this.receiveBrowserDelivery(event.url, event.atMillis);
      case 'browser_closed':
        return this.phase === 'in_browser' && this.sessionId !== null
          ? this.confirm(this.sessionId, event.atMillis, { content: 'cancelled' })
          : [];
      case 'session_state':
        return this.receiveState(event.sessionId, event.status, event.atMillis);
      case 'session_state_failed':
        if (this.phase !== 'confirming' || this.schedule === null) return [];
        if (event.failure !== 'retryable') return [{ type: 'forget_pending_session' }, ...this.settleUnconfirmed()];
        return [{ type: 'schedule_tick', atMillis: this.schedule.answerArrived(event.atMillis, this.polling) }];
      case 'tick': {
        if (this.phase !== 'confirming' || this.schedule === null || this.sessionId === null) return [];
        const outcome = this.schedule.tick(event.atMillis);
        if (outcome === 'wait') return [];
        if (outcome === 'request') return [{ type: 'fetch_session', sessionId: this.sessionId }];
        return this.settleUnconfirmed();
      }
      case 'background':
      case 'foreground':
        return [];
      case 'restore': {
        const given = event.sessionId !== null && event.sessionId !== '' ? event.sessionId : null;
        const id = this.phase === 'ready' ? given : this.phase === 'resumable' ? given ?? this.sessionId : null;
        return id !== null ? this.confirm(id, event.atMillis, { content: 'confirming', hint: 'resumed' }) : [];
      }
    }
  }

  /** The browser's own delivery ends the browser phase; the link only chooses the hint, when it names our session. */
  private receiveBrowserDelivery(url: string, atMillis: number): ConnectAction[] {
    const id = this.sessionId;
    if ((this.phase !== 'in_browser' && this.phase !== 'resumable') || id === null) return this.receiveOsReturn(url, atMillis);
    const parsed = this.parser.parse(url);
    const hintText: ConnectReturnHint = parsed.accepted && parsed.value.sessionId === id ? hint(parsed.value.resultCode) : 'unknown';
    return this.confirm(id, atMillis, { content: 'confirming', hint: hintText });
  }

  /** An OS link: AppAuth order; a bare registered return URL is the one refused link that counts. */
  private receiveOsReturn(url: string, atMillis: number): ConnectAction[] {
    const pendingId = this.pendingSessionId;
    const parsed = this.parser.parse(url);
    if (!parsed.accepted) {
      if (pendingId === null || this.phase === 'confirming' || !this.parser.isBareReturn(url)) return [];
      return this.confirm(pendingId, atMillis, { content: 'confirming', hint: 'unknown' });
    }
    if (pendingId === null || parsed.value.sessionId !== pendingId) return [];
    if (this.phase === 'confirming') {
      // Already asking (the browser closed first): the redirect only updates what is shown.
      this.shown = { content: 'confirming', hint: hint(parsed.value.resultCode) };
      return [{ type: 'render', screen: this.screen }];
    }
    return this.confirm(pendingId, atMillis, { content: 'confirming', hint: hint(parsed.value.resultCode) });
  }

  private receiveState(id: string, status: ConnectSessionStatus, atMillis: number): ConnectAction[] {
    if (this.phase !== 'confirming' || this.schedule === null || id !== this.sessionId) return [];
    if (status === 'pending') return [{ type: 'schedule_tick', atMillis: this.schedule.answerArrived(atMillis, this.polling) }];
    const content = SETTLED[status];
    this.phase = 'settled';
    this.shown = { content };
    return [{ type: 'forget_pending_session' }, { type: 'render', screen: this.shown }];
  }

  /** Ends polling without an answer; the id stays kept so a later restore asks again. */
  private settleUnconfirmed(): ConnectAction[] {
    this.phase = 'settled';
    this.shown = { content: this.shown.content === 'cancelled' ? 'cancelled' : 'check_later' };
    return [{ type: 'render', screen: this.shown }];
  }

  private confirm(id: string, atMillis: number, showing: ConnectScreen): ConnectAction[] {
    this.phase = 'confirming';
    this.sessionId = id;
    this.shown = showing;
    this.schedule = new PollSchedule(atMillis, this.polling);
    return [
      { type: 'render', screen: showing },
      { type: 'fetch_session', sessionId: id },
      { type: 'schedule_tick', atMillis: atMillis + this.polling.timeoutMillis },
    ];
  }
}

/** The screen each settled status ends on. */
const SETTLED: Record<Exclude<ConnectSessionStatus, 'pending'>, 'connected' | 'failed' | 'cancelled' | 'expired'> = {
  ok: 'connected',
  error: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
};

function hint(resultCode: ConnectReturn['resultCode']): ConnectReturnHint {
  return resultCode === 'Ok' ? 'ok' : resultCode === 'Error' ? 'error' : 'cancelled';
}
