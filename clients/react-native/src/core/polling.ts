/** How long and how often a flow asks the backend for the outcome after the browser is gone (seconds, at least 1). */
export class PollingPolicy {
  readonly intervalMillis: number;
  readonly timeoutMillis: number;

  constructor(intervalSeconds = 2, timeoutSeconds = 60) {
    this.intervalMillis = Math.max(1, intervalSeconds) * 1000;
    this.timeoutMillis = Math.max(1, timeoutSeconds) * 1000;
  }
}

/** One bounded polling run (BatonClient `PollSchedule`). */
export class PollSchedule {
  readonly deadline: number;
  private requestInFlight = true;
  private nextRequestAt: number | null = null;

  constructor(startMillis: number, policy: PollingPolicy) {
    this.deadline = startMillis + policy.timeoutMillis;
  }

  /** A non-final answer or a retryable failure arrived: when the next tick is due. */
  answerArrived(nowMillis: number, policy: PollingPolicy): number {
    this.requestInFlight = false;
    this.nextRequestAt = Math.min(nowMillis + policy.intervalMillis, this.deadline);
    return this.nextRequestAt;
  }

  tick(nowMillis: number): 'wait' | 'request' | 'timed_out' {
    if (nowMillis >= this.deadline) return 'timed_out';
    if (this.requestInFlight || this.nextRequestAt === null || nowMillis < this.nextRequestAt) return 'wait';
    this.requestInFlight = true;
    this.nextRequestAt = null;
    return 'request';
  }
}

export type RequestFailure = 'retryable' | 'definitive';
