// Transcribed from clients/react-native/src/core/polling.ts (BatonClient PollingPolicy / PollSchedule).

/// How a request to the backend failed, as a flow machine sees it.
enum RequestFailure {
  /// Network error, timeout (408 included), 429 or 5xx: the same request may succeed later.
  retryable,

  /// Any other 4xx (and 401 while polling): asking again the same way will not help.
  definitive,
}

/// How long and how often a flow asks the backend for the outcome after the browser is gone (at least 1 s each).
class PollingPolicy {
  const PollingPolicy({this.intervalSeconds = 2, this.timeoutSeconds = 60});

  final int intervalSeconds;
  final int timeoutSeconds;

  Duration get interval => Duration(seconds: intervalSeconds < 1 ? 1 : intervalSeconds);
  Duration get timeout => Duration(seconds: timeoutSeconds < 1 ? 1 : timeoutSeconds);
}

/// What a tick of a [PollSchedule] asks for.
enum PollOutcome { wait, request, timedOut }

/// One bounded polling run.
class PollSchedule {
  PollSchedule(DateTime start, PollingPolicy policy) : deadline = start.add(policy.timeout);

  final DateTime deadline;
  bool _requestInFlight = true;
  DateTime? _nextRequestAt;

  /// A non-final answer or a retryable failure arrived: when the next tick is due.
  DateTime answerArrived(DateTime now, PollingPolicy policy) {
    _requestInFlight = false;
    final next = now.add(policy.interval);
    final due = next.isBefore(deadline) ? next : deadline;
    _nextRequestAt = due;
    return due;
  }

  PollOutcome tick(DateTime now) {
    if (!now.isBefore(deadline)) return PollOutcome.timedOut;
    final next = _nextRequestAt;
    if (_requestInFlight || next == null || now.isBefore(next)) return PollOutcome.wait;
    _requestInFlight = true;
    _nextRequestAt = null;
    return PollOutcome.request;
  }
}
