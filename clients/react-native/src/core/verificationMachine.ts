import { PollingPolicy, PollSchedule, RequestFailure } from './polling';
import { VerificationReturnParser } from './returnLinks';
import { SensitiveUrl } from './retry';

/** What the Privue verification screen shows (Swift `VerificationScreen`), discriminated by `content`. */
export type VerificationScreen =
  /** The `Verify` action, usable. */
  | { content: 'ready' }
  /** Creating the handoff; the browser opens as soon as it exists. */
  | { content: 'opening' }
  /** The journey is open in the camera web view. */
  | { content: 'in_journey' }
  /** The handoff could not be created; `Verify` can be tapped again. */
  | { content: 'could_not_start'; failure: RequestFailure }
  /** Asking the backend for the outcome; `landingHint` is the redirect's `status` (display only, not proof). */
  | { content: 'confirming'; landingHint?: string }
  /** The backend reports `status` (a settled Privue status such as `approved`, `rejected`, `submitted`). */
  | { content: 'settled'; status: string }
  /** The backend did not report a settled status in time: "we'll let you know", never a guess. */
  | { content: 'check_later' };

export type VerificationEvent =
  | { type: 'verify_tap'; atMillis: number }
  | { type: 'handoff_created'; url: SensitiveUrl }
  | { type: 'handoff_failed'; failure: RequestFailure }
  /** A link the OS delivered. */
  | { type: 'return_link'; url: string; atMillis: number }
  /** The web view stopped on a registered return URL and closed itself with it. */
  | { type: 'web_view_return'; url: string; atMillis: number }
  | { type: 'browser_closed'; atMillis: number }
  | { type: 'status'; status: string; atMillis: number }
  | { type: 'status_failed'; failure: RequestFailure; atMillis: number }
  | { type: 'background' }
  | { type: 'foreground'; atMillis: number }
  | { type: 'restore'; atMillis: number }
  | { type: 'tick'; atMillis: number };

export type VerificationAction =
  | { type: 'render'; screen: VerificationScreen }
  | { type: 'request_handoff'; workflow: string }
  | { type: 'present_camera_web_view'; url: SensitiveUrl }
  | { type: 'dismiss_web_view' }
  | { type: 'fetch_status'; workflow: string }
  | { type: 'schedule_tick'; atMillis: number };

type Phase = 'ready' | 'requesting' | 'in_journey' | 'could_not_start' | 'confirming' | 'settled' | 'check_later';

/** Statuses under which the user may still be in the journey (Baton's reading); any other is settled. */
const IN_PROGRESS = ['created', 'pending', 'opened', 'in_progress'];

/**
 * The Privue verification flow (seed 001), transcribed from the Kotlin shell's `VerificationMachine`: the web view
 * ending on a registered return URL ends the browser phase and confirms, with or without `verification_id`; an OS
 * link counts when it is a return or a bare registered return URL; a foreground while the journey is pending and no
 * return came asks the backend, one request at a time.
 */
export class VerificationMachine {
  private phase: Phase = 'ready';
  private failure: RequestFailure | null = null;
  private hint: string | null = null;
  private status: string | null = null;
  private schedule: PollSchedule | null = null;
  private foregroundCheckInFlight = false;

  constructor(
    readonly workflow: string,
    private readonly parser: VerificationReturnParser,
    private readonly polling: PollingPolicy = new PollingPolicy(),
  ) {}

  get screen(): VerificationScreen {
    switch (this.phase) {
      case 'ready':
        return { content: 'ready' };
      case 'requesting':
        return { content: 'opening' };
      case 'in_journey':
        return { content: 'in_journey' };
      case 'could_not_start':
        return { content: 'could_not_start', failure: this.failure ?? 'definitive' };
      case 'confirming':
        return this.hint === null ? { content: 'confirming' } : { content: 'confirming', landingHint: this.hint };
      case 'settled':
        return { content: 'settled', status: this.status ?? '' };
      case 'check_later':
        return { content: 'check_later' };
    }
  }

  handle(event: VerificationEvent): VerificationAction[] {
    switch (event.type) {
      case 'verify_tap':
        if (!['ready', 'could_not_start', 'settled', 'check_later'].includes(this.phase)) return [];
        this.phase = 'requesting';
        return [{ type: 'render', screen: this.screen }, { type: 'request_handoff', workflow: this.workflow }];
      case 'handoff_created':
        if (this.phase !== 'requesting') return [];
        this.phase = 'in_journey';
        this.foregroundCheckInFlight = false;
        return [{ type: 'render', screen: this.screen }, { type: 'present_camera_web_view', url: event.url }];
      case 'handoff_failed':
        if (this.phase !== 'requesting') return [];
        this.phase = 'could_not_start';
        this.failure = event.failure;
        return [{ type: 'render', screen: this.screen }];
      case 'return_link': {
        if (this.phase !== 'in_journey') return [];
        const parsed = this.parser.parse(event.url);
        if (parsed.accepted) return this.confirm(event.atMillis, parsed.value.statusHint);
        return this.parser.isBareReturn(event.url) ? this.confirm(event.atMillis, null) : [];
      }
      case 'web_view_return': {
        if (this.phase !== 'in_journey') return this.handle({ type: 'return_link', url: event.url, atMillis: event.atMillis });
        const parsed = this.parser.parse(event.url);
        // Without a usable verification_id the journey ended anyway: confirm.
        return this.confirm(event.atMillis, parsed.accepted ? parsed.value.statusHint : null);
      }
      case 'browser_closed':
        return this.phase === 'in_journey' ? this.confirm(event.atMillis, null) : [];
      case 'status':
        return this.receiveStatus(event.status, event.atMillis);
      case 'status_failed':
        if (this.phase === 'in_journey') {
          this.foregroundCheckInFlight = false;
          return [];
        }
        if (this.phase !== 'confirming' || this.schedule === null) return [];
        if (event.failure !== 'retryable') {
          this.phase = 'check_later';
          return [{ type: 'render', screen: this.screen }];
        }
        return [{ type: 'schedule_tick', atMillis: this.schedule.answerArrived(event.atMillis, this.polling) }];
      case 'tick': {
        if (this.phase !== 'confirming' || this.schedule === null) return [];
        const outcome = this.schedule.tick(event.atMillis);
        if (outcome === 'wait') return [];
        if (outcome === 'request') return [{ type: 'fetch_status', workflow: this.workflow }];
        this.phase = 'check_later';
        return [{ type: 'render', screen: this.screen }];
      }
      case 'background':
        return [];
      case 'foreground':
        if (this.phase === 'check_later') return this.confirm(event.atMillis, null);
        if (this.phase === 'in_journey' && !this.foregroundCheckInFlight) {
          // Pending and no return came: ask (the journey may have ended elsewhere), one request at a time.
          this.foregroundCheckInFlight = true;
          return [{ type: 'fetch_status', workflow: this.workflow }];
        }
        return [];
      case 'restore':
        return ['ready', 'in_journey', 'requesting', 'check_later'].includes(this.phase) ? this.confirm(event.atMillis, null) : [];
    }
  }

  private receiveStatus(received: string, atMillis: number): VerificationAction[] {
    const settled = !IN_PROGRESS.includes(received);
    if (this.phase === 'check_later' && settled) {
      this.phase = 'settled';
      this.status = received;
      return [{ type: 'render', screen: this.screen }];
    }
    if (this.phase === 'in_journey') {
      // The answer to the foreground check: settled ends the journey; anything else leaves it open.
      if (!this.foregroundCheckInFlight) return [];
      this.foregroundCheckInFlight = false;
      if (!settled) return [];
      this.phase = 'settled';
      this.status = received;
      return [{ type: 'dismiss_web_view' }, { type: 'render', screen: this.screen }];
    }
    if (this.phase !== 'confirming' || this.schedule === null) return [];
    if (settled) {
      this.phase = 'settled';
      this.status = received;
      return [{ type: 'render', screen: this.screen }];
    }
    return [{ type: 'schedule_tick', atMillis: this.schedule.answerArrived(atMillis, this.polling) }];
  }

  private confirm(atMillis: number, landingHint: string | null): VerificationAction[] {
    const wasInJourney = this.phase === 'in_journey';
    this.foregroundCheckInFlight = false;
    this.phase = 'confirming';
    this.hint = landingHint;
    this.schedule = new PollSchedule(atMillis, this.polling);
    const actions: VerificationAction[] = wasInJourney ? [{ type: 'dismiss_web_view' }] : [];
    actions.push(
      { type: 'render', screen: this.screen },
      { type: 'fetch_status', workflow: this.workflow },
      { type: 'schedule_tick', atMillis: atMillis + this.polling.timeoutMillis },
    );
    return actions;
  }
}
