// The Privue verification flow (Privue *Handoff*), transcribed from clients/react-native/src/core/verificationMachine.ts
// (itself from the Kotlin shell's VerificationMachine and BatonClient's). A pure state machine: no I/O, clock or
// randomness. Not compiled here: its TypeScript original runs the shared vectors.
import 'polling.dart';
import 'return_links.dart';
import 'sensitive_url.dart';

/// What the Privue verification screen shows (Swift `VerificationScreen`).
sealed class VerificationScreen {
  const VerificationScreen();

  /// The TypeScript shell's discriminant for this screen.
  String get content;
}

/// The `Verify` action, usable.
final class VerificationReady extends VerificationScreen {
  const VerificationReady();
  @override
  String get content => 'ready';
  @override
  bool operator ==(Object other) => other is VerificationReady;
  @override
  int get hashCode => content.hashCode;
}

/// Creating the handoff; the web view opens as soon as it exists.
final class VerificationOpening extends VerificationScreen {
  const VerificationOpening();
  @override
  String get content => 'opening';
  @override
  bool operator ==(Object other) => other is VerificationOpening;
  @override
  int get hashCode => content.hashCode;
}

/// The journey is open in the camera web view.
final class VerificationInJourney extends VerificationScreen {
  const VerificationInJourney();
  @override
  String get content => 'in_journey';
  @override
  bool operator ==(Object other) => other is VerificationInJourney;
  @override
  int get hashCode => content.hashCode;
}

/// The handoff could not be created; `Verify` can be tapped again.
final class VerificationCouldNotStart extends VerificationScreen {
  const VerificationCouldNotStart(this.failure);
  final RequestFailure failure;
  @override
  String get content => 'could_not_start';
  @override
  bool operator ==(Object other) => other is VerificationCouldNotStart && other.failure == failure;
  @override
  int get hashCode => Object.hash(content, failure);
}

/// Asking the backend for the outcome; [landingHint] is the redirect's `status` (display only, not proof).
final class VerificationConfirming extends VerificationScreen {
  const VerificationConfirming([this.landingHint]);
  final String? landingHint;
  @override
  String get content => 'confirming';
  @override
  bool operator ==(Object other) => other is VerificationConfirming && other.landingHint == landingHint;
  @override
  int get hashCode => Object.hash(content, landingHint);
}

/// The backend reports [status], settled (`submitted`, `approved`, `rejected`, `expired`, …).
final class VerificationSettled extends VerificationScreen {
  const VerificationSettled(this.status);
  final String status;
  @override
  String get content => 'settled';
  @override
  bool operator ==(Object other) => other is VerificationSettled && other.status == status;
  @override
  int get hashCode => Object.hash(content, status);
}

/// The backend did not report a settled status in time: "we'll let you know", never a guess.
final class VerificationCheckLater extends VerificationScreen {
  const VerificationCheckLater();
  @override
  String get content => 'check_later';
  @override
  bool operator ==(Object other) => other is VerificationCheckLater;
  @override
  int get hashCode => content.hashCode;
}

/// What happened: the app's taps and lifecycle, the backend's answers, the web view's end, the timer.
sealed class VerificationEvent {
  const VerificationEvent();
}

final class VerificationVerifyTapEvent extends VerificationEvent {
  const VerificationVerifyTapEvent(this.at);
  final DateTime at;
}

final class VerificationHandoffCreatedEvent extends VerificationEvent {
  const VerificationHandoffCreatedEvent(this.url);
  final SensitiveUrl url;
}

final class VerificationHandoffFailedEvent extends VerificationEvent {
  const VerificationHandoffFailedEvent(this.failure);
  final RequestFailure failure;
}

/// A link the OS delivered to the app (app_links).
final class VerificationReturnLinkEvent extends VerificationEvent {
  const VerificationReturnLinkEvent(this.url, this.at);
  final String url;
  final DateTime at;
}

/// The web view stopped on a registered return URL and closed itself with it.
final class VerificationWebViewReturnEvent extends VerificationEvent {
  const VerificationWebViewReturnEvent(this.url, this.at);
  final String url;
  final DateTime at;
}

/// The web view closed (or failed) without a return.
final class VerificationBrowserClosedEvent extends VerificationEvent {
  const VerificationBrowserClosedEvent(this.at);
  final DateTime at;
}

/// The backend's `GET /v2/verifications/{workflow}` answer.
final class VerificationStatusEvent extends VerificationEvent {
  const VerificationStatusEvent(this.status, this.at);
  final String status;
  final DateTime at;
}

final class VerificationStatusFailedEvent extends VerificationEvent {
  const VerificationStatusFailedEvent(this.failure, this.at);
  final RequestFailure failure;
  final DateTime at;
}

final class VerificationBackgroundEvent extends VerificationEvent {
  const VerificationBackgroundEvent();
}

final class VerificationForegroundEvent extends VerificationEvent {
  const VerificationForegroundEvent(this.at);
  final DateTime at;
}

final class VerificationRestoreEvent extends VerificationEvent {
  const VerificationRestoreEvent(this.at);
  final DateTime at;
}

final class VerificationTickEvent extends VerificationEvent {
  const VerificationTickEvent(this.at);
  final DateTime at;
}

/// What the controller must do, in order.
sealed class VerificationAction {
  const VerificationAction();
}

final class VerificationRenderAction extends VerificationAction {
  const VerificationRenderAction(this.screen);
  final VerificationScreen screen;
}

final class VerificationRequestHandoffAction extends VerificationAction {
  const VerificationRequestHandoffAction(this.workflow);
  final String workflow;
}

final class VerificationPresentCameraWebViewAction extends VerificationAction {
  const VerificationPresentCameraWebViewAction(this.url);
  final SensitiveUrl url;
}

final class VerificationDismissWebViewAction extends VerificationAction {
  const VerificationDismissWebViewAction();
}

final class VerificationFetchStatusAction extends VerificationAction {
  const VerificationFetchStatusAction(this.workflow);
  final String workflow;
}

final class VerificationScheduleTickAction extends VerificationAction {
  const VerificationScheduleTickAction(this.at);
  final DateTime at;
}

/// Statuses under which the user may still be in the journey (Baton's reading); any other is settled.
const List<String> verificationInProgressStatuses = ['created', 'pending', 'opened', 'in_progress'];

/// Whether a Privue status is settled (the app stops polling).
bool isVerificationSettled(String status) => !verificationInProgressStatuses.contains(status);

enum _Phase { ready, requesting, inJourney, couldNotStart, confirming, settled, checkLater }

/// The Privue verification flow: the web view ending on a registered return URL ends the browser phase and confirms,
/// with or without `verification_id`; an OS link counts when it is a return or a bare registered return URL; a
/// foreground while the journey is open and no return came asks the backend, one request at a time.
class VerificationMachine {
  VerificationMachine(this.workflow, this._parser, [this._polling = const PollingPolicy()]);

  final String workflow;
  final VerificationReturnParser _parser;
  final PollingPolicy _polling;

  _Phase _phase = _Phase.ready;
  RequestFailure? _failure;
  String? _hint;
  String? _status;
  PollSchedule? _schedule;
  bool _foregroundCheckInFlight = false;

  VerificationScreen get screen {
    switch (_phase) {
      case _Phase.ready:
        return const VerificationReady();
      case _Phase.requesting:
        return const VerificationOpening();
      case _Phase.inJourney:
        return const VerificationInJourney();
      case _Phase.couldNotStart:
        return VerificationCouldNotStart(_failure ?? RequestFailure.definitive);
      case _Phase.confirming:
        return VerificationConfirming(_hint);
      case _Phase.settled:
        return VerificationSettled(_status ?? '');
      case _Phase.checkLater:
        return const VerificationCheckLater();
    }
  }

  List<VerificationAction> handle(VerificationEvent event) {
    if (event is VerificationVerifyTapEvent) {
      const startable = [_Phase.ready, _Phase.couldNotStart, _Phase.settled, _Phase.checkLater];
      if (!startable.contains(_phase)) return const [];
      _phase = _Phase.requesting;
      return [VerificationRenderAction(screen), VerificationRequestHandoffAction(workflow)];
    }
    if (event is VerificationHandoffCreatedEvent) {
      if (_phase != _Phase.requesting) return const [];
      _phase = _Phase.inJourney;
      _foregroundCheckInFlight = false;
      return [VerificationRenderAction(screen), VerificationPresentCameraWebViewAction(event.url)];
    }
    if (event is VerificationHandoffFailedEvent) {
      if (_phase != _Phase.requesting) return const [];
      _phase = _Phase.couldNotStart;
      _failure = event.failure;
      return [VerificationRenderAction(screen)];
    }
    if (event is VerificationReturnLinkEvent) {
      if (_phase != _Phase.inJourney) return const [];
      final parsed = _parser.parse(event.url);
      if (parsed.accepted) return _confirm(event.at, parsed.value!.statusHint);
      return _parser.isBareReturn(event.url) ? _confirm(event.at, null) : const [];
    }
    if (event is VerificationWebViewReturnEvent) {
      if (_phase != _Phase.inJourney) return handle(VerificationReturnLinkEvent(event.url, event.at));
      final parsed = _parser.parse(event.url);
      // Without a usable verification_id the journey ended anyway: confirm.
      return _confirm(event.at, parsed.accepted ? parsed.value!.statusHint : null);
    }
    if (event is VerificationBrowserClosedEvent) {
      return _phase == _Phase.inJourney ? _confirm(event.at, null) : const [];
    }
    if (event is VerificationStatusEvent) return _receiveStatus(event.status, event.at);
    if (event is VerificationStatusFailedEvent) {
      if (_phase == _Phase.inJourney) {
        _foregroundCheckInFlight = false;
        return const [];
      }
      final schedule = _schedule;
      if (_phase != _Phase.confirming || schedule == null) return const [];
      if (event.failure != RequestFailure.retryable) {
        _phase = _Phase.checkLater;
        return [VerificationRenderAction(screen)];
      }
      return [VerificationScheduleTickAction(schedule.answerArrived(event.at, _polling))];
    }
    if (event is VerificationTickEvent) {
      final schedule = _schedule;
      if (_phase != _Phase.confirming || schedule == null) return const [];
      final outcome = schedule.tick(event.at);
      if (outcome == PollOutcome.wait) return const [];
      if (outcome == PollOutcome.request) return [VerificationFetchStatusAction(workflow)];
      _phase = _Phase.checkLater;
      return [VerificationRenderAction(screen)];
    }
    if (event is VerificationBackgroundEvent) return const [];
    if (event is VerificationForegroundEvent) {
      if (_phase == _Phase.checkLater) return _confirm(event.at, null);
      if (_phase == _Phase.inJourney && !_foregroundCheckInFlight) {
        // Open and no return came: ask (the journey may have ended elsewhere), one request at a time.
        _foregroundCheckInFlight = true;
        return [VerificationFetchStatusAction(workflow)];
      }
      return const [];
    }
    if (event is VerificationRestoreEvent) {
      const restorable = [_Phase.ready, _Phase.inJourney, _Phase.requesting, _Phase.checkLater];
      return restorable.contains(_phase) ? _confirm(event.at, null) : const [];
    }
    return const [];
  }

  List<VerificationAction> _receiveStatus(String received, DateTime at) {
    final settled = !verificationInProgressStatuses.contains(received);
    if (_phase == _Phase.checkLater && settled) {
      _phase = _Phase.settled;
      _status = received;
      return [VerificationRenderAction(screen)];
    }
    if (_phase == _Phase.inJourney) {
      // The answer to the foreground check: settled ends the journey; anything else leaves it open.
      if (!_foregroundCheckInFlight) return const [];
      _foregroundCheckInFlight = false;
      if (!settled) return const [];
      _phase = _Phase.settled;
      _status = received;
      return [const VerificationDismissWebViewAction(), VerificationRenderAction(screen)];
    }
    final schedule = _schedule;
    if (_phase != _Phase.confirming || schedule == null) return const [];
    if (settled) {
      _phase = _Phase.settled;
      _status = received;
      return [VerificationRenderAction(screen)];
    }
    return [VerificationScheduleTickAction(schedule.answerArrived(at, _polling))];
  }

  List<VerificationAction> _confirm(DateTime at, String? landingHint) {
    final wasInJourney = _phase == _Phase.inJourney;
    _foregroundCheckInFlight = false;
    _phase = _Phase.confirming;
    _hint = landingHint;
    _schedule = PollSchedule(at, _polling);
    return [
      if (wasInJourney) const VerificationDismissWebViewAction(),
      VerificationRenderAction(screen),
      VerificationFetchStatusAction(workflow),
      VerificationScheduleTickAction(at.add(_polling.timeout)),
    ];
  }
}
