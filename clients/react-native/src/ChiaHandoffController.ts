import { decodeCatalogCard } from './core/catalogCard';
import { ChiaAction, ChiaEvent, ChiaHandoffMachine, ChiaScreen } from './core/chiaMachine';
import { attemptBodyJson, PendingAttempt, SensitiveUrl, ShareOutcome } from './core/retry';

/** What a share request came back with: the journey URL, or what the HTTP layer saw. */
export type ShareResult = { ok: true; url: SensitiveUrl } | { ok: false; outcome: ShareOutcome };

/** The app's side of the Chia flow: the partner backend, the attempt store, the browser, the clock. */
export interface ChiaEffects {
  /** `GET /v2/catalog`, answering this item's card JSON (null when it is not listed); throws when unreachable. */
  fetchCard(catalogItemId: string): Promise<unknown | null>;
  /** `POST /v2/handoff-sessions` with exactly this body (`attemptBodyJson`) and `Idempotency-Key`. */
  sendShare(attempt: PendingAttempt, body: string): Promise<ShareResult>;
  /** Persist the attempt (body + key; never a URL) before it is sent, e.g. in AsyncStorage. */
  saveAttempt(attempt: PendingAttempt): void;
  discardAttempt(): void;
  /** Opens the URL once in the OS external browser (`openExternal`). */
  openExternal(url: SensitiveUrl): void;
  /** The backend answered 401: sign the user in again (the kept attempt is resent by the next share tap). */
  requestSignIn(): void;
  routeToMarketplaceHome(): void;
  now(): number;
  /** A fresh UUIDv4 (crypto.randomUUID or react-native-get-random-values + uuid). */
  newKey(): string;
  /** Calls `fire` at `atMillis` (setTimeout in an app, a fake clock in tests). */
  schedule(atMillis: number, fire: () => void): void;
}

/**
 * Runs one card's `ChiaHandoffMachine`: delivers events, performs its actions in order, and reports each screen.
 * It holds no journey URL: the one from a share response goes straight to `openExternal`.
 */
export class ChiaHandoffController {
  readonly machine: ChiaHandoffMachine;

  constructor(
    machine: ChiaHandoffMachine,
    private readonly effects: ChiaEffects,
    private readonly onScreen: (screen: ChiaScreen) => void,
  ) {
    this.machine = machine;
  }

  callToAction(): void {
    this.send({ type: 'cta' });
  }

  share(): void {
    this.send({ type: 'share_tap', atMillis: this.effects.now(), freshKey: this.effects.newKey() });
  }

  continueWithoutSharing(): void {
    this.send({ type: 'continue_tap' });
  }

  foreground(): void {
    this.send({ type: 'foreground' });
  }

  returnLink(url: string): void {
    this.send({ type: 'return_link', url });
  }

  restore(attempt: PendingAttempt | null): void {
    this.send({ type: 'restored', attempt });
  }

  send(event: ChiaEvent): void {
    for (const action of this.machine.handle(event)) this.perform(action);
  }

  private perform(action: ChiaAction): void {
    const effects = this.effects;
    switch (action.type) {
      case 'render':
        this.onScreen(action.screen);
        return;
      case 'fetch_projection':
        effects.fetchCard(this.machine.catalogItemId).then(
          (json) => this.send({ type: 'projection', card: json === null ? null : decodeCatalogCard(json) }),
          () => this.send({ type: 'projection_failed' }),
        );
        return;
      case 'save_pending_attempt':
        effects.saveAttempt(action.attempt);
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
        effects.discardAttempt();
        return;
      case 'open_external_browser':
        effects.openExternal(action.url);
        return;
      case 'schedule_tick':
        effects.schedule(action.atMillis, () => this.send({ type: 'tick', atMillis: effects.now() }));
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
