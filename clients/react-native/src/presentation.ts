/**
 * How a presentation of a journey ended (Swift `BrowserCompletion`): a return link (raw, for the strict parser), a
 * close without a return, a failure while open, a failure to open at all, or cancellation by the app. Every end but
 * `cancelled` ends the browser phase, and the flow asks the backend for the real outcome.
 */
export type BrowserCompletion =
  | { kind: 'returned'; url: string }
  | { kind: 'closed_without_return' }
  | { kind: 'failed' }
  | { kind: 'failed_to_open' }
  | { kind: 'cancelled' };

/** A failure the app hears about besides the screen (the screen always shows where the flow ended). */
export interface BatonFlowFailure {
  readonly flow: 'chia' | 'privue' | 'bb';
  readonly code: 'browser_failed_to_open' | 'browser_failed' | 'attempt_not_persisted' | 'storage_failed';
}
