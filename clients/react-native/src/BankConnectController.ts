import { BackendClient } from './backend/BackendClient';
import { BackendError } from './backend/BackendError';
import { ConnectCallbackKind } from './backend/BackendResponseDecoding';
import { ConnectAction, ConnectEvent, ConnectMachine, ConnectScreen } from './core/connectMachine';
import { PollingPolicy, RequestFailure } from './core/polling';
import { ConnectReturnParser } from './core/returnLinks';
import { SensitiveUrl } from './core/retry';
import { BatonScheduler, BatonStorage } from './configuration';
import { FlowLifecycle } from './flowLifecycle';
import { BatonFlowFailure, BrowserCompletion } from './presentation';

/**
 * Opens BB's hosted URL in an authentication session (ASWebAuthenticationSession on iOS, Custom Tabs on Android) —
 * never the system browser app, never a WebView — and resolves once with how it ended. `callbackUrl` is the return
 * URL this device catches (https on iOS 17.4+, else the custom scheme).
 */
export interface AuthSessionAdapter {
  openAuthSession(url: SensitiveUrl, callbackUrl: string): Promise<BrowserCompletion>;
}

function failureOf(error: unknown): RequestFailure {
  return error instanceof BackendError ? error.failure : 'retryable';
}

/**
 * Runs the BB `ConnectMachine` (Swift `ConnectCoordinator`): creates the session at tap time for the callback this
 * device catches, opens it once in the auth-session adapter, keeps only the session id (never the hosted URL) so a
 * cold start confirms it, and confirms every end — a return, a close without a return, a failed open — with the
 * backend.
 */
export class BankConnectController {
  readonly machine: ConnectMachine;
  onFailure: (failure: BatonFlowFailure) => void = () => undefined;
  private lastScreen: ConnectScreen;
  private readonly lifecycle = new FlowLifecycle();

  constructor(
    private readonly callback: { kind: ConnectCallbackKind; url: string },
    parser: ConnectReturnParser,
    private readonly backend: BackendClient,
    private readonly adapter: AuthSessionAdapter,
    /** Where the pending session id is kept: the signed-in user's `storageKeys(userId).bbPendingSession`. */
    private readonly pending: { storage: BatonStorage; key: string },
    private readonly scheduler: BatonScheduler,
    private readonly onScreen: (screen: ConnectScreen) => void,
    polling: PollingPolicy = new PollingPolicy(),
  ) {
    this.machine = new ConnectMachine(callback.kind, parser, polling);
    this.lastScreen = this.machine.screen;
  }

  get screen(): ConnectScreen {
    return this.lastScreen;
  }

  connectTapped(): void {
    this.send({ type: 'connect_tap', atMillis: this.scheduler.now() });
  }

  /** A link the OS delivered while no auth session was waiting for it. */
  returnLink(url: string): void {
    this.send({ type: 'return_link', url, atMillis: this.scheduler.now() });
  }

  backgrounded(): void {
    this.send({ type: 'background' });
  }

  foregrounded(): void {
    this.send({ type: 'foreground', atMillis: this.scheduler.now() });
  }

  /** After a (cold) start: confirms the session kept in storage, if any. */
  async restore(): Promise<void> {
    let id: string | null = null;
    try {
      id = await this.pending.storage.getItem(this.pending.key);
    } catch {
      this.onFailure({ flow: 'bb', code: 'storage_failed' });
    }
    this.send({ type: 'restore', sessionId: id, atMillis: this.scheduler.now() });
  }

  /** Undoes `stop()` (the hooks stop a flow when their component unmounts and resume it when React mounts it again). */
  resume(): void {
    this.lifecycle.resume();
  }

  /** Ends the flow's work: pending timers are cancelled and later answers, ends and events are ignored. */
  stop(): void {
    this.lifecycle.stop();
  }

  send(event: ConnectEvent): void {
    if (this.lifecycle.stopped) return;
    for (const action of this.machine.handle(event)) this.perform(action);
  }

  private perform(action: ConnectAction): void {
    const now = () => this.scheduler.now();
    switch (action.type) {
      case 'render':
        this.lastScreen = action.screen;
        this.onScreen(action.screen);
        return;
      case 'create_session':
        this.backend.createConnectSession(this.callback.kind).then(
          (session) =>
            this.send({ type: 'session_created', sessionId: session.sessionId, hostedUrl: session.hostedUrl, callback: session.callbackKind }),
          (error) => this.send({ type: 'session_failed', failure: failureOf(error) }),
        );
        return;
      case 'open_browser':
        this.lifecycle.present(() => this.adapter.openAuthSession(action.url, this.callback.url), (completion) => this.completed(completion));
        return;
      case 'fetch_session':
        this.backend.connectSession(action.sessionId).then(
          (state) => this.send({ type: 'session_state', sessionId: state.sessionId, status: state.status, atMillis: now() }),
          (error) => this.send({ type: 'session_state_failed', failure: failureOf(error), atMillis: now() }),
        );
        return;
      case 'schedule_tick':
        this.lifecycle.keepTimer(this.scheduler.schedule(action.atMillis, () => this.send({ type: 'tick', atMillis: now() })));
        return;
      case 'keep_pending_session':
        this.pending.storage.setItem(this.pending.key, action.sessionId).catch(() => this.onFailure({ flow: 'bb', code: 'storage_failed' }));
        return;
      case 'forget_pending_session':
        this.pending.storage.removeItem(this.pending.key).catch(() => this.onFailure({ flow: 'bb', code: 'storage_failed' }));
        return;
    }
  }

  private completed(completion: BrowserCompletion): void {
    const atMillis = this.scheduler.now();
    switch (completion.kind) {
      case 'returned':
        this.send({ type: 'browser_return', url: completion.url, atMillis });
        return;
      case 'failed_to_open':
      case 'failed':
        this.onFailure({ flow: 'bb', code: completion.kind === 'failed' ? 'browser_failed' : 'browser_failed_to_open' });
        this.send({ type: 'browser_closed', atMillis });
        return;
      case 'closed_without_return':
        this.send({ type: 'browser_closed', atMillis });
        return;
      case 'cancelled':
        return;
    }
  }
}
