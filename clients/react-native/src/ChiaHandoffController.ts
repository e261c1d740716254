import { CatalogCard } from './core/catalogCard';
import { ChiaAction, ChiaEvent, ChiaHandoffMachine, ChiaScreen } from './core/chiaMachine';
import { attemptBodyJson, PendingAttempt, SensitiveUrl, ShareOutcome } from './core/retry';
import { FlowLifecycle } from './flowLifecycle';
import { BatonFlowFailure } from './presentation';

/** What a share request came back with: the journey URL, or what the HTTP layer saw. */
export type ShareResult = { ok: true; url: SensitiveUrl } | { ok: false; outcome: ShareOutcome };

/** The app's side of the Chia flow: the partner backend, the attempt store, the browser, the clock. */
export interface ChiaEffects {
  /** `GET /v2/catalog`, answering this item's card (null when it is not listed); rejects when unreachable. */
  fetchCard(catalogItemId: string): Promise<CatalogCard | null>;
  /** `POST /v2/handoff-sessions` with exactly this body (`attemptBodyJson`) and `Idempotency-Key`. */
  sendShare(attempt: PendingAttempt, body: string): Promise<ShareResult>;
  /** Persists the attempt (body + key; never a URL); the share is sent only once this has settled. */
  saveAttempt(attempt: PendingAttempt): Promise<void> | void;
  discardAttempt(): Promise<void> | void;
  /** Opens the URL once in the OS external browser; rejects (or throws) when it could not be opened. */
  openExternal(url: SensitiveUrl): Promise<void> | void;
  /** The backend answered 401: sign the user in again (the kept attempt is resent by the next share tap). */
  requestSignIn(): void;
  routeToMarketplaceHome(): void;
  now(): number;
  /** A fresh UUIDv4 (`uuidV4()`; `crypto.randomUUID` does not exist in Hermes). */
  newKey(): string;
  /** Calls `fire` at `atMillis` (setTimeout in an app, a fake clock in tests); may answer a cancel function. */
  schedule(atMillis: number, fire: () => void): (() => void) | void;
}

/**
 * Runs one card's `ChiaHandoffMachine`: delivers events, performs each batch of actions in order — awaiting the
 * attempt's persistence before the share request leaves — and reports each screen. It holds no journey URL: the one
 * from a share response goes straight to `openExternal`; a failed open re-presents the card (the machine's
 * `browser_failed`) and is reported to `onFailure`.
 */
export class ChiaHandoffController {
  readonly machine: ChiaHandoffMachine;
  /** Hears a failure besides the screen (a browser that did not open, an attempt that could not be persisted). */
  onFailure: (failure: BatonFlowFailure) => void = () => undefined;
  private lastScreen: ChiaScreen;
  private readonly lifecycle = new FlowLifecycle();

  constructor(
    machine: ChiaHandoffMachine,
    private readonly effects: ChiaEffects,
    private readonly onScreen: (screen: ChiaScreen) => void,
  ) {
    this.machine = machine;
    this.lastScreen = machine.screen;
  }

  /** The last screen rendered. */
  get screen(): ChiaScreen {
    return this.lastScreen;
  }

  /** The card's call to action: fetches a fresh projection (the first request of the flow). */
  callToActionTapped(): void {
    this.send({ type: 'cta' });
  }

  /** `Share selection and continue`: persists the attempt, then sends it; further taps join it. */
  shareTapped(): void {
    this.send({ type: 'share_tap', atMillis: this.effects.now(), freshKey: this.effects.newKey() });
  }

  /** `Continue to Chia` / `Continue without sharing`: opens the neutral URL. */
  continueTapped(): void {
    this.send({ type: 'continue_tap' });
  }

  /** @deprecated use `callToActionTapped()`. */
  callToAction(): void {
    this.callToActionTapped();
  }

  /** @deprecated use `shareTapped()`. */
  share(): void {
    this.shareTapped();
  }

  /** @deprecated use `continueTapped()`. */
  continueWithoutSharing(): void {
    this.continueTapped();
  }

  backgrounded(): void {
    this.send({ type: 'background' });
  }

  foregrounded(): void {
    this.send({ type: 'foreground' });
  }

  /** @deprecated use `foregrounded()`. */
  foreground(): void {
    this.foregrounded();
  }

  returnLink(url: string): void {
    this.send({ type: 'return_link', url });
  }

  restore(attempt: PendingAttempt | null): void {
    this.send({ type: 'restored', attempt });
  }

  /** Undoes `stop()` (the hooks stop a flow when their component unmounts and resume it when React mounts it again). */
  resume(): void {
    this.lifecycle.resume();
  }

  /** Ends the flow's work: pending timers are cancelled and later answers and events are ignored. */
  stop(): void {
    this.lifecycle.stop();
  }

  send(event: ChiaEvent): void {
    if (this.lifecycle.stopped) return;
    void this.performAll(this.machine.handle(event));
  }

  private async performAll(actions: ChiaAction[]): Promise<void> {
    for (const action of actions) await this.perform(action);
  }

  private async perform(action: ChiaAction): Promise<void> {
    const effects = this.effects;
    switch (action.type) {
      case 'render':
        this.lastScreen = action.screen;
        this.onScreen(action.screen);
        return;
      case 'fetch_projection':
        effects.fetchCard(this.machine.catalogItemId).then(
          (card) => this.send({ type: 'projection', card }),
          () => this.send({ type: 'projection_failed' }),
        );
        return;
      case 'save_pending_attempt':
        try {
          await effects.saveAttempt(action.attempt);
        } catch {
          // The attempt stays in memory for this run's retries; the app hears that a restart would lose it.
          this.onFailure({ flow: 'chia', code: 'attempt_not_persisted' });
        }
        return;
      case 'send_share_request':
        effects.sendShare(action.attempt, attemptBodyJson(action.attempt)).then(
          (result) =>
            this.send(
              result.ok
                ? { type: 'share_succeeded', url: result.url }
                : { type: 'share_failed', outcome: result.outcome, atMillis: effects.now() },
            ),
          () => this.send({ type: 'share_failed', outcome: { kind: 'transport', failure: 'connect' }, atMillis: effects.now() }),
        );
        return;
      case 'discard_pending_attempt':
        try {
          await effects.discardAttempt();
        } catch {
          this.onFailure({ flow: 'chia', code: 'storage_failed' });
        }
        return;
      case 'open_external_browser': {
        let opened: Promise<void> | void;
        try {
          opened = effects.openExternal(action.url);
        } catch {
          opened = Promise.reject(new Error('open failed'));
        }
        Promise.resolve(opened).then(undefined, () => {
          this.onFailure({ flow: 'chia', code: 'browser_failed_to_open' });
          this.send({ type: 'browser_failed' });
        });
        return;
      }
      case 'schedule_tick':
        {
          const cancel = effects.schedule(action.atMillis, () => this.send({ type: 'tick', atMillis: effects.now() }));
          if (typeof cancel === 'function') this.lifecycle.keepTimer(cancel);
        }
        return;
      case 'route_to_marketplace_home':
        effects.routeToMarketplaceHome();
        return;
      case 'request_sign_in':
        effects.requestSignIn();
        return;
    }
  }
}
