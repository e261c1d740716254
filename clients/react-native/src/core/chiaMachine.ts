import { actionLabels, CatalogCard, SHARE_LABEL } from './catalogCard';
import { GenericReturnParser } from './returnLinks';
import { classifyShareOutcome, PendingAttempt, rfc3339, RetryDecision, SensitiveUrl, ShareOutcome } from './retry';

/**
 * A notice shown with the handoff: the share's outcome is unknown (`share_uncertain`), the backend asked to wait
 * (`share_retry_later`; a share tap joins the retry), or the backend no longer accepts the app's sign-in
 * (`sign_in_required`); in each, sharing again resends the same request.
 */
export type ChiaNotice = 'share_uncertain' | 'share_retry_later' | 'sign_in_required';

/**
 * What the Chia handoff screen shows (Swift `ChiaScreen`), discriminated by `content`: only the card with its call to
 * action (`card`), fetching (`loading`), not in the user's catalog (`hidden`: render nothing), the projection could
 * not be fetched (`unavailable`), or the just-in-time handoff for the card, by its mode.
 */
export type ChiaScreen =
  | {
      content: 'card' | 'loading' | 'hidden' | 'unavailable';
      card: null;
      shareEnabled: false;
      continueEnabled: false;
      notice: null;
    }
  | {
      content: 'neutral_only' | 'share_or_neutral';
      card: CatalogCard;
      /** Whether `Share selection and continue` can be tapped now. */
      shareEnabled: boolean;
      /** Whether the neutral action (`Continue to Chia` / `Continue without sharing`) can be tapped now. */
      continueEnabled: boolean;
      notice: ChiaNotice | null;
    };

export function screenActionLabels(screen: ChiaScreen): string[] {
  return screen.card === null ? [] : actionLabels(screen.card.handoff);
}

export type ChiaEvent =
  | { type: 'cta' }
  | { type: 'projection'; card: CatalogCard | null }
  | { type: 'projection_failed' }
  | { type: 'share_tap'; atMillis: number; freshKey: string }
  | { type: 'continue_tap' }
  | { type: 'share_succeeded'; url: SensitiveUrl }
  | { type: 'share_failed'; outcome: ShareOutcome; atMillis: number }
  | { type: 'browser_failed' }
  | { type: 'return_link'; url: string }
  | { type: 'background' }
  | { type: 'foreground' }
  | { type: 'restored'; attempt: PendingAttempt | null }
  | { type: 'tick'; atMillis: number };

export type ChiaAction =
  | { type: 'render'; screen: ChiaScreen }
  | { type: 'fetch_projection' }
  | { type: 'save_pending_attempt'; attempt: PendingAttempt }
  | { type: 'send_share_request'; attempt: PendingAttempt }
  | { type: 'discard_pending_attempt' }
  | { type: 'open_external_browser'; url: SensitiveUrl }
  | { type: 'schedule_tick'; atMillis: number }
  | { type: 'route_to_marketplace_home' }
  | { type: 'request_sign_in' };

type Phase = 'card' | 'loading' | 'hidden' | 'unavailable' | 'presenting' | 'sharing' | 'opened';

/**
 * The Chia handoff for one catalog card (seed 000 "Tap sequence"), a pure state machine transcribed from the Kotlin
 * shell's `ChiaHandoffMachine` (itself a mirror of BatonClient's). No I/O, clock or randomness.
 *
 * - nothing is requested before the tap; the call to action fetches a fresh projection, rendered as is;
 * - the first share tap disables both actions before the request; further taps join it;
 * - body and key are persisted before the first send and reused unchanged after a network error, 408, 429, 5xx, a
 *   restart, and after a 401 (the app is asked to sign in again; the next share tap resends them); a definitive
 *   rejection discards them and refetches;
 * - during a Retry-After wait "Continue without sharing" stays usable and a share tap joins the pending retry;
 * - the journey URL appears only in `open_external_browser`, once; nothing is inferred from focus or a return.
 */
export class ChiaHandoffMachine {
  private phase: Phase = 'card';
  private card: CatalogCard | null = null;
  private pendingAttempt: PendingAttempt | null = null;
  private retryNotBefore: number | null = null;
  private retryJoined = false;
  private signInRequired = false;

  constructor(readonly catalogItemId: string, private readonly genericReturn: GenericReturnParser | null) {}

  /** The attempt kept for retries, if any. */
  get pending(): PendingAttempt | null {
    return this.pendingAttempt;
  }

  get screen(): ChiaScreen {
    switch (this.phase) {
      case 'card':
      case 'loading':
      case 'hidden':
      case 'unavailable':
        return { content: this.phase, card: null, shareEnabled: false, continueEnabled: false, notice: null };
      case 'presenting': {
        const card = this.card as CatalogCard;
        const share = card.handoff.mode === 'share_or_neutral';
        const notice = this.signInRequired
          ? 'sign_in_required'
          : this.pendingAttempt === null || !share
            ? null
            : this.retryNotBefore === null
              ? 'share_uncertain'
              : 'share_retry_later';
        return { content: card.handoff.mode, card, shareEnabled: share && !this.retryJoined, continueEnabled: true, notice };
      }
      default: {
        const card = this.card as CatalogCard;
        return { content: card.handoff.mode, card, shareEnabled: false, continueEnabled: false, notice: null };
      }
    }
  }

  handle(event: ChiaEvent): ChiaAction[] {
    switch (event.type) {
      case 'cta':
        return this.phase === 'card' || this.phase === 'unavailable' ? this.refresh() : [];
      case 'projection':
        return this.phase === 'loading' ? this.present(event.card) : [];
      case 'projection_failed':
        if (this.phase !== 'loading') return [];
        this.phase = 'unavailable';
        return [{ type: 'render', screen: this.screen }];
      case 'share_tap':
        return this.share(event.atMillis, event.freshKey);
      case 'continue_tap':
        return this.continueWithoutSharing();
      case 'share_succeeded':
        if (this.phase !== 'sharing') return [];
        this.phase = 'opened';
        this.pendingAttempt = null;
        return [
          { type: 'discard_pending_attempt' },
          { type: 'render', screen: this.screen },
          { type: 'open_external_browser', url: event.url },
        ];
      case 'share_failed':
        return this.phase === 'sharing' ? this.shareFailed(classifyShareOutcome(event.outcome, event.atMillis), event.atMillis) : [];
      case 'browser_failed':
        return this.phase === 'opened' ? this.refresh() : [];
      case 'return_link':
        return this.genericReturn !== null && this.genericReturn.parse(event.url).accepted
          ? [{ type: 'route_to_marketplace_home' }]
          : [];
      case 'background':
        return [];
      case 'foreground':
        return ['card', 'loading', 'sharing'].includes(this.phase) ? [] : this.refresh();
      case 'restored':
        if (event.attempt !== null && event.attempt.catalogItemId === this.catalogItemId && this.pendingAttempt === null) {
          this.pendingAttempt = event.attempt;
        }
        return this.refresh();
      case 'tick':
        return this.tick(event.atMillis);
    }
  }

  private refresh(): ChiaAction[] {
    this.phase = 'loading';
    this.retryNotBefore = null;
    this.retryJoined = false;
    this.signInRequired = false;
    return [{ type: 'render', screen: this.screen }, { type: 'fetch_projection' }];
  }

  private present(fresh: CatalogCard | null): ChiaAction[] {
    if (fresh === null || fresh.id !== this.catalogItemId) {
      this.phase = 'hidden';
      return [...this.discardPending(), { type: 'render', screen: this.screen }];
    }
    const actions: ChiaAction[] = [];
    const attempt = this.pendingAttempt;
    const handoff = fresh.handoff;
    // A kept attempt survives only while it still matches the projection it was made for.
    const matches =
      handoff.mode === 'share_or_neutral' &&
      attempt !== null &&
      attempt.catalogItemId === fresh.id &&
      attempt.disclosureVersion === handoff.disclosureVersion;
    if (attempt !== null && !matches) actions.push(...this.discardPending());
    this.card = fresh;
    this.phase = 'presenting';
    actions.push({ type: 'render', screen: this.screen });
    return actions;
  }

  private discardPending(): ChiaAction[] {
    if (this.pendingAttempt === null) return [];
    this.pendingAttempt = null;
    return [{ type: 'discard_pending_attempt' }];
  }

  private share(atMillis: number, freshKey: string): ChiaAction[] {
    const handoff = this.card?.handoff;
    if (this.phase !== 'presenting' || handoff === undefined || handoff.mode !== 'share_or_neutral') return [];
    if (this.retryNotBefore !== null && this.pendingAttempt !== null) {
      // During a Retry-After wait the tap joins the pending retry: no new key, nothing sent before the wait ends.
      if (this.retryJoined) return [];
      this.retryJoined = true;
      return [{ type: 'render', screen: this.screen }];
    }
    this.phase = 'sharing';
    this.signInRequired = false;
    const actions: ChiaAction[] = [{ type: 'render', screen: this.screen }];
    let attempt = this.pendingAttempt;
    if (attempt === null) {
      attempt = {
        key: freshKey,
        catalogItemId: (this.card as CatalogCard).id,
        disclosureVersion: handoff.disclosureVersion,
        affirmedAt: rfc3339(atMillis),
      };
      this.pendingAttempt = attempt;
      actions.push({ type: 'save_pending_attempt', attempt });
    }
    actions.push({ type: 'send_share_request', attempt });
    return actions;
  }

  private continueWithoutSharing(): ChiaAction[] {
    const card = this.card;
    if (this.phase !== 'presenting' || card === null) return [];
    this.phase = 'opened';
    this.retryNotBefore = null;
    this.retryJoined = false;
    const url = card.handoff.mode === 'neutral_only' ? card.handoff.url : card.handoff.neutralUrl;
    return [{ type: 'render', screen: this.screen }, { type: 'open_external_browser', url: new SensitiveUrl(url) }];
  }

  private shareFailed(decision: RetryDecision, atMillis: number): ChiaAction[] {
    switch (decision.decision) {
      // done here means a 2xx whose URL could not be read: the session may exist, so an unchanged retry is safe.
      case 'retry':
      case 'done': {
        this.phase = 'presenting';
        const actions: ChiaAction[] = [];
        const after = decision.decision === 'retry' ? decision.retryAfterSeconds : null;
        if (after !== null && after > 0) {
          this.retryNotBefore = atMillis + after * 1000;
          actions.push({ type: 'schedule_tick', atMillis: this.retryNotBefore });
        }
        actions.push({ type: 'render', screen: this.screen });
        return actions;
      }
      case 'sign_in_and_retry':
        // The first attempt may have reached Chia: keep body and key for the retry after signing in.
        this.phase = 'presenting';
        this.signInRequired = true;
        return [{ type: 'request_sign_in' }, { type: 'render', screen: this.screen }];
      case 'refetch_projection':
        return [...this.discardPending(), ...this.refresh()];
    }
  }

  private tick(nowMillis: number): ChiaAction[] {
    if (this.retryNotBefore === null || nowMillis < this.retryNotBefore) return [];
    this.retryNotBefore = null;
    if (this.phase !== 'presenting') return [];
    const attempt = this.pendingAttempt;
    const joined = this.retryJoined;
    this.retryJoined = false;
    if (joined && attempt !== null) {
      this.phase = 'sharing';
      return [{ type: 'render', screen: this.screen }, { type: 'send_share_request', attempt }];
    }
    return [{ type: 'render', screen: this.screen }];
  }
}

export { SHARE_LABEL };
