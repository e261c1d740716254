import { BrowserCompletion } from './presentation';

/**
 * What every flow controller keeps besides its machine: whether it was stopped, the timers it armed, and which
 * browser presentation is current, so exactly one end of the current presentation counts (a stale end after a
 * dismiss or a stop is ignored) and a presenter that throws counts as a failed open.
 */
export class FlowLifecycle {
  private stoppedFlag = false;
  private presentation = 0;
  private timers: Array<() => void> = [];

  /** Whether the flow was stopped (its events, answers and ends are ignored). */
  get stopped(): boolean {
    return this.stoppedFlag;
  }

  /** Undoes `stop()`. */
  resume(): void {
    this.stoppedFlag = false;
  }

  /** Cancels the timers and makes any presentation's end stale. */
  stop(): void {
    this.stoppedFlag = true;
    this.presentation += 1;
    for (const cancel of this.timers.splice(0)) cancel();
  }

  /** Keeps `cancel` (a timer's) to be called at `stop()`. */
  keepTimer(cancel: () => void): void {
    this.timers.push(cancel);
  }

  /** Opens a browser with `open` and hands its one end to `ended`, unless the presentation went stale first. */
  present(open: () => Promise<BrowserCompletion>, ended: (completion: BrowserCompletion) => void): void {
    const id = ++this.presentation;
    let opened: Promise<BrowserCompletion>;
    try {
      opened = open();
    } catch {
      opened = Promise.resolve({ kind: 'failed_to_open' });
    }
    const end = (completion: BrowserCompletion): void => {
      if (id !== this.presentation) return;
      this.presentation += 1;
      ended(completion);
    };
    opened.then(end, () => end({ kind: 'failed' }));
  }

  /** The app dismissed the browser: its end, when it comes, is stale. */
  dismissed(): void {
    this.presentation += 1;
  }
}
