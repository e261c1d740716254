import 'dart:async';

import 'browser.dart';

/// What every flow controller keeps besides its machine (the TypeScript package's `FlowLifecycle`): whether it was
/// stopped, the timers it armed, and which browser presentation is current, so exactly one end of the current
/// presentation counts (a stale end after a dismiss or a stop is ignored) and a presenter that throws counts as a
/// failed open.
class FlowLifecycle {
  bool _stopped = false;
  int _presentation = 0;
  final List<Timer> _timers = [];

  /// Whether the flow was stopped (its events, answers and ends are ignored).
  bool get stopped => _stopped;

  /// Cancels the timers and makes any presentation's end stale; false when it was stopped already.
  bool stop() {
    if (_stopped) return false;
    _stopped = true;
    _presentation += 1;
    for (final timer in _timers) {
      timer.cancel();
    }
    _timers.clear();
    return true;
  }

  /// Calls [fire] at [at] (now, if that has passed) unless the flow stops first.
  void schedule(DateTime at, DateTime now, void Function() fire) {
    late Timer timer;
    final delay = at.difference(now);
    timer = Timer(delay.isNegative ? Duration.zero : delay, () {
      _timers.remove(timer);
      fire();
    });
    _timers.add(timer);
  }

  /// Opens a browser with [open] and hands its one end to [ended], unless the presentation went stale first.
  void present(Future<BrowserCompletion> Function() open, void Function(BrowserCompletion end) ended) {
    final id = ++_presentation;
    Future<BrowserCompletion> opened;
    try {
      opened = open();
    } catch (_) {
      opened = Future.value(BrowserCompletion.failedToOpen);
    }
    void end(BrowserCompletion completion) {
      if (id != _presentation) return;
      _presentation += 1;
      ended(completion);
    }

    opened.then(end, onError: (Object _) => end(BrowserCompletion.failed));
  }

  /// The app dismissed the browser: its end, when it comes, is stale.
  void dismissed() {
    _presentation += 1;
  }
}
