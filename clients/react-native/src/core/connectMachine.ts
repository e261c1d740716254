import { PollingPolicy, PollSchedule, RequestFailure } from './polling';
import { ConnectReturnParser } from './returnLinks';
import { SensitiveUrl } from './retry';

/** What the BB screen shows: content plus the redirect's hint (ok, error, cancelled, resumed) or a failure. */
export interface ConnectScreen {
  content: string;
  hint?: string;
  failure?: RequestFailure;
}

export type ConnectEvent =
  | { type: 'connect_tap'; atMillis: number }
  | { type: 'session_created'; sessionId: string; hostedUrl: SensitiveUrl; callback: string }
  | { type: 'session_failed'; failure: RequestFailure }
  | { type: 'return_link'; url: string; atMillis: number }
  | { type: 'browser_closed'; atMillis: number }
  | { type: 'session_state'; sessionId: string; status: string; atMillis: number }
  | { type: 'session_state_failed'; failure: RequestFailure; atMillis: number }
  | { type: 'background' }
  | { type: 'foreground'; atMillis: number }
  | { type: 'restore'; sessionId: string | null; atMillis: number }
  | { type: 'tick'; atMillis: number };

export type ConnectAction =
  | { type: 'render'; screen: ConnectScreen }
  | { type: 'create_session'; callback: string }
  | { type: 'open_browser'; url: SensitiveUrl }
  | { type: 'fetch_session'; sessionId: string }
  | { type: 'schedule_tick'; atMillis: number }
  | { type: 'save_pending_session'; sessionId: string }
  | { type: 'clear_pending_session' };

type Phase = 'ready' | 'creating' | 'in_browser' | 'could_not_start' | 'confirming' | 'settled';

/**
 * The BB connect flow (seed 002), transcribed from the Kotlin shell's `ConnectMachine`: any delivery from the browser
 * (accepted link, refused link, or back in the app without one) ends the browser phase and asks the backend about
 * the session id the backend returned; the pending session id (opaque, never the hosted URL) is persisted so a
 * cold-start return confirms it even before or without `restore`.
 */
export class ConnectMachine {
  private phase: Phase = 'ready';
  private sessionId: string | null;
  private shown: ConnectScreen = { content: 'ready' };
  private schedule: PollSchedule | null = null;

  constructor(
    private readonly callbackKind: string,
    private readonly parser: ConnectReturnParser,
    private readonly polling: PollingPolicy = new PollingPolicy(),
    storedPendingSessionId: string | null = null,
  ) {
    this.sessionId = storedPendingSessionId === '' ? null : storedPendingSessionId;
  }

  get screen(): ConnectScreen {
    switch (this.phase) {
      case 'ready':
        return { content: 'ready' };
      case 'creating':
        return { content: 'starting' };
      case 'in_browser':
        return { content: 'in_browser' };
      default:
        return this.shown;
    }
  }

  handle(event: ConnectEvent): ConnectAction[] {
    switch (event.type) {
      case 'connect_tap':
        if (this.phase !== 'ready' && this.phase !== 'could_not_start' && this.phase !== 'settled') return [];
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
          { type: 'save_pending_session', sessionId: event.sessionId },
          { type: 'render', screen: this.screen },
          { type: 'open_browser', url: event.hostedUrl },
        ];
      case 'session_failed':
        if (this.phase !== 'creating') return [];
        this.phase = 'could_not_start';
        this.shown = { content: 'could_not_start', failure: event.failure };
        return [{ type: 'render', screen: this.screen }];
      case 'return_link':
        return this.receiveReturn(event.url, event.atMillis);
      case 'browser_closed':
        // In the browser, or cold with a kept session (the app died while the browser was open): closed, confirm.
        return (this.phase === 'in_browser' || this.phase === 'ready') && this.sessionId !== null
          ? this.confirm(this.sessionId, event.atMillis, { content: 'cancelled' })
          : [];
      case 'session_state':
        return this.receiveState(event.sessionId, event.status, event.atMillis);
      case 'session_state_failed':
        if (this.phase !== 'confirming' || this.schedule === null) return [];
        if (event.failure !== 'retryable') return this.settleUnconfirmed();
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
        const id = event.sessionId !== null && event.sessionId !== '' ? event.sessionId : this.sessionId;
        return this.phase === 'ready' && id !== null ? this.confirm(id, event.atMillis, { content: 'confirming', hint: 'resumed' }) : [];
      }
    }
  }

  private receiveReturn(url: string, atMillis: number): ConnectAction[] {
    const parsed = this.parser.parse(url);
    const accepted = parsed.accepted ? parsed.value : null;
    const id = this.sessionId;
    if ((this.phase === 'in_browser' || this.phase === 'ready') && id !== null) {
      // A delivery while the browser is open (or into a cold start that kept the id) ends the browser phase; only
      // the backend's session id is asked about. A refused or foreign link is no data.
      if (accepted !== null && accepted.sessionId === id) {
        return this.confirm(id, atMillis, { content: 'confirming', hint: hint(accepted.resultCode) });
      }
      return this.phase === 'in_browser'
        ? this.confirm(id, atMillis, { content: 'cancelled' })
        : this.confirm(id, atMillis, { content: 'confirming', hint: 'resumed' });
    }
    if (this.phase === 'confirming' && accepted !== null && accepted.sessionId === id) {
      this.shown = { content: 'confirming', hint: hint(accepted.resultCode) };
      return [{ type: 'render', screen: this.screen }];
    }
    return [];
  }

  private receiveState(id: string, status: string, atMillis: number): ConnectAction[] {
    if (this.phase !== 'confirming' || this.schedule === null || id !== this.sessionId) return [];
    const settled: Record<string, string> = { ok: 'connected', error: 'failed', cancelled: 'cancelled', expired: 'expired' };
    const content = settled[status];
    if (content === undefined) return [{ type: 'schedule_tick', atMillis: this.schedule.answerArrived(atMillis, this.polling) }];
    this.phase = 'settled';
    this.shown = { content };
    return [{ type: 'clear_pending_session' }, { type: 'render', screen: this.shown }];
  }

  private settleUnconfirmed(): ConnectAction[] {
    this.phase = 'settled';
    this.shown = { content: this.shown.content === 'cancelled' ? 'cancelled' : 'check_later' };
    return [{ type: 'clear_pending_session' }, { type: 'render', screen: this.shown }];
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

function hint(resultCode: string): string {
  return resultCode === 'Ok' ? 'ok' : resultCode === 'Error' ? 'error' : 'cancelled';
}
