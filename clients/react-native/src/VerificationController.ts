import { BackendClient } from './backend/BackendClient';
import { BackendError } from './backend/BackendError';
import { PollingPolicy, RequestFailure } from './core/polling';
import { VerificationReturnParser } from './core/returnLinks';
import { SensitiveUrl } from './core/retry';
import { VerificationAction, VerificationEvent, VerificationMachine, VerificationScreen } from './core/verificationMachine';
import { BatonScheduler } from './configuration';
import { FlowLifecycle } from './flowLifecycle';
import { BatonFlowFailure, BrowserCompletion } from './presentation';

/**
 * Presents Privue's journey in a browser that carries the camera (`<VerificationJourney>` through `useVerification`,
 * or a test's headless browser). `present` resolves once, with how the journey ended; `dismiss` closes it.
 */
export interface VerificationPresenter {
  present(url: SensitiveUrl): Promise<BrowserCompletion>;
  dismiss(): void;
}

function failureOf(error: unknown): RequestFailure {
  return error instanceof BackendError ? error.failure : 'retryable';
}

/**
 * Runs the Privue `VerificationMachine` (Swift `VerificationCoordinator`): asks the backend for a fresh handoff at tap
 * time, presents it once, and after the journey (a return, a close, a failed open) polls the backend for the real
 * status. Logic only: `useVerification` wraps it for React, a headless walker drives it directly.
 */
export class VerificationController {
  readonly machine: VerificationMachine;
  onFailure: (failure: BatonFlowFailure) => void = () => undefined;
  private lastScreen: VerificationScreen;
  private readonly lifecycle = new FlowLifecycle();

  constructor(
    workflow: string,
    parser: VerificationReturnParser,
    private readonly backend: BackendClient,
    private readonly presenter: VerificationPresenter,
    private readonly scheduler: BatonScheduler,
    private readonly onScreen: (screen: VerificationScreen) => void,
    polling: PollingPolicy = new PollingPolicy(),
  ) {
    this.machine = new VerificationMachine(workflow, parser, polling);
    this.lastScreen = this.machine.screen;
  }

  get screen(): VerificationScreen {
    return this.lastScreen;
  }

  verifyTapped(): void {
    this.send({ type: 'verify_tap', atMillis: this.scheduler.now() });
  }

  /** A link the OS delivered (`Linking` URL event or the launch URL). */
  returnLink(url: string): void {
    this.send({ type: 'return_link', url, atMillis: this.scheduler.now() });
  }

  backgrounded(): void {
    this.send({ type: 'background' });
  }

  foregrounded(): void {
    this.send({ type: 'foreground', atMillis: this.scheduler.now() });
  }

  /** After a restart: asks the backend where the verification stands. */
  restore(): void {
    this.send({ type: 'restore', atMillis: this.scheduler.now() });
  }

  /** Undoes `stop()` (the hooks stop a flow when their component unmounts and resume it when React mounts it again). */
  resume(): void {
    this.lifecycle.resume();
  }

  /** Ends the flow's work: pending timers are cancelled and later answers, ends and events are ignored. */
  stop(): void {
    this.lifecycle.stop();
  }

  send(event: VerificationEvent): void {
    if (this.lifecycle.stopped) return;
    for (const action of this.machine.handle(event)) this.perform(action);
  }

  private perform(action: VerificationAction): void {
    const now = () => this.scheduler.now();
    switch (action.type) {
      case 'render':
        this.lastScreen = action.screen;
        this.onScreen(action.screen);
        return;
      case 'request_handoff':
        this.backend.createVerificationHandoff(action.workflow).then(
          (handoff) => this.send({ type: 'handoff_created', url: handoff.url }),
          (error) => this.send({ type: 'handoff_failed', failure: failureOf(error) }),
        );
        return;
      case 'present_camera_web_view':
        this.lifecycle.present(() => this.presenter.present(action.url), (completion) => this.completed(completion));
        return;
      case 'dismiss_web_view':
        this.lifecycle.dismissed();
        this.presenter.dismiss();
        return;
      case 'fetch_status':
        this.backend.verification(action.workflow).then(
          (state) => this.send({ type: 'status', status: state.status, atMillis: now() }),
          (error) => this.send({ type: 'status_failed', failure: failureOf(error), atMillis: now() }),
        );
        return;
      case 'schedule_tick':
        this.lifecycle.keepTimer(this.scheduler.schedule(action.atMillis, () => this.send({ type: 'tick', atMillis: now() })));
        return;
    }
  }

  /** How the journey ended: only the current presentation's one end gets here (FlowLifecycle). */
  private completed(completion: BrowserCompletion): void {
    const atMillis = this.scheduler.now();
    switch (completion.kind) {
      case 'returned':
        this.send({ type: 'web_view_return', url: completion.url, atMillis });
        return;
      case 'failed_to_open':
      case 'failed':
        this.onFailure({ flow: 'privue', code: completion.kind === 'failed' ? 'browser_failed' : 'browser_failed_to_open' });
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
