// The BB connect flow (BB *Mobile apps*), transcribed from clients/react-native/src/core/connectMachine.ts (itself
// from the Kotlin shell's ConnectMachine, which mirrors BatonClient's). A pure state machine. Not compiled here.
import 'api_types.dart';
import 'polling.dart';
import 'return_links.dart';
import 'sensitive_url.dart';

/// What the redirect claimed (a UX signal only).
enum ConnectReturnHint {
  /// `resultCode=Ok`.
  ok,

  /// `resultCode=Error`.
  error,

  /// `resultCode=Cancelled`.
  cancelled,

  /// No redirect: the app restarted with a session pending.
  resumed,

  /// A delivery without a result the app can use; its data is ignored and the backend is asked all the same.
  unknown,
}

/// What the BB connect screen shows (Swift `ConnectScreen`).
sealed class ConnectScreen {
  const ConnectScreen();

  /// The TypeScript shell's discriminant for this screen.
  String get content;

  @override
  bool operator ==(Object other) => other is ConnectScreen && other.runtimeType == runtimeType && other._key == _key;

  @override
  int get hashCode => Object.hash(content, _key);

  Object? get _key => null;
}

/// The `Connect` action, usable.
final class ConnectReady extends ConnectScreen {
  const ConnectReady();
  @override
  String get content => 'ready';
}

/// Creating the connect session.
final class ConnectStarting extends ConnectScreen {
  const ConnectStarting();
  @override
  String get content => 'starting';
}

/// The authentication session is open.
final class ConnectInBrowser extends ConnectScreen {
  const ConnectInBrowser();
  @override
  String get content => 'in_browser';
}

/// The session could not be created (or not for a callback this device catches); `Connect` can be tapped again.
final class ConnectCouldNotStart extends ConnectScreen {
  const ConnectCouldNotStart(this.failure);
  final RequestFailure failure;
  @override
  String get content => 'could_not_start';
  @override
  Object? get _key => failure;
}

/// A return arrived ([hint]); asking the backend for the real outcome.
final class ConnectConfirming extends ConnectScreen {
  const ConnectConfirming(this.hint);
  final ConnectReturnHint hint;
  @override
  String get content => 'confirming';
  @override
  Object? get _key => hint;
}

/// Closed without a return: the cancelled path, while the backend is still asked.
final class ConnectCancelled extends ConnectScreen {
  const ConnectCancelled();
  @override
  String get content => 'cancelled';
}

/// The backend confirmed a connection.
final class ConnectConnected extends ConnectScreen {
  const ConnectConnected();
  @override
  String get content => 'connected';
}

/// The backend reports the flow failed.
final class ConnectFailed extends ConnectScreen {
  const ConnectFailed();
  @override
  String get content => 'failed';
}

/// The backend reports the session expired unfinished.
final class ConnectExpired extends ConnectScreen {
  const ConnectExpired();
  @override
  String get content => 'expired';
}

/// The backend did not settle in time: "check later", never a guess.
final class ConnectCheckLater extends ConnectScreen {
  const ConnectCheckLater();
  @override
  String get content => 'check_later';
}

/// What happened: the app's taps and lifecycle, the backend's answers, the authentication session's end, the timer.
sealed class ConnectEvent {
  const ConnectEvent();
}

final class ConnectConnectTapEvent extends ConnectEvent {
  const ConnectConnectTapEvent(this.at);
  final DateTime at;
}

final class ConnectSessionCreatedEvent extends ConnectEvent {
  const ConnectSessionCreatedEvent(this.sessionId, this.hostedUrl, this.callback);
  final String sessionId;
  final SensitiveUrl hostedUrl;
  final ConnectCallbackKind callback;
}

final class ConnectSessionFailedEvent extends ConnectEvent {
  const ConnectSessionFailedEvent(this.failure);
  final RequestFailure failure;
}

/// A link the OS delivered to the app (app_links) while no browser delivery was due.
final class ConnectReturnLinkEvent extends ConnectEvent {
  const ConnectReturnLinkEvent(this.url, this.at);
  final String url;
  final DateTime at;
}

/// The authentication session's own delivery (the URL `FlutterWebAuth2.authenticate` completed with).
final class ConnectBrowserReturnEvent extends ConnectEvent {
  const ConnectBrowserReturnEvent(this.url, this.at);
  final String url;
  final DateTime at;
}

/// The authentication session ended without a link (the user's cancel, or a failure).
final class ConnectBrowserClosedEvent extends ConnectEvent {
  const ConnectBrowserClosedEvent(this.at);
  final DateTime at;
}

/// The backend's `GET /v2/connect-sessions/{sessionId}` answer.
final class ConnectSessionStateEvent extends ConnectEvent {
  const ConnectSessionStateEvent(this.sessionId, this.status, this.at);
  final String sessionId;
  final ConnectSessionStatus status;
  final DateTime at;
}

final class ConnectSessionStateFailedEvent extends ConnectEvent {
  const ConnectSessionStateFailedEvent(this.failure, this.at);
  final RequestFailure failure;
  final DateTime at;
}

final class ConnectBackgroundEvent extends ConnectEvent {
  const ConnectBackgroundEvent();
}

final class ConnectForegroundEvent extends ConnectEvent {
  const ConnectForegroundEvent(this.at);
  final DateTime at;
}

/// The app restarted; [sessionId] is the kept pending session, if the app passes one.
final class ConnectRestoreEvent extends ConnectEvent {
  const ConnectRestoreEvent(this.sessionId, this.at);
  final String? sessionId;
  final DateTime at;
}

final class ConnectTickEvent extends ConnectEvent {
  const ConnectTickEvent(this.at);
  final DateTime at;
}

/// What the controller must do, in order.
sealed class ConnectAction {
  const ConnectAction();
}

final class ConnectRenderAction extends ConnectAction {
  const ConnectRenderAction(this.screen);
  final ConnectScreen screen;
}

final class ConnectCreateSessionAction extends ConnectAction {
  const ConnectCreateSessionAction(this.callback);
  final ConnectCallbackKind callback;
}

final class ConnectOpenBrowserAction extends ConnectAction {
  const ConnectOpenBrowserAction(this.url);
  final SensitiveUrl url;
}

final class ConnectFetchSessionAction extends ConnectAction {
  const ConnectFetchSessionAction(this.sessionId);
  final String sessionId;
}

final class ConnectScheduleTickAction extends ConnectAction {
  const ConnectScheduleTickAction(this.at);
  final DateTime at;
}

/// Keep the pending session id (never the hosted URL) so a cold start can confirm it.
final class ConnectKeepPendingSessionAction extends ConnectAction {
  const ConnectKeepPendingSessionAction(this.sessionId);
  final String sessionId;
}

final class ConnectForgetPendingSessionAction extends ConnectAction {
  const ConnectForgetPendingSessionAction();
}

enum _Phase { ready, resumable, creating, inBrowser, couldNotStart, confirming, settled }

/// The BB connect flow: the session's own delivery (an accepted or refused link) or a close ends the browser phase
/// and asks the backend about the session id the backend returned; an OS link keeps AppAuth's checks, a bare
/// registered return URL being the one refused link that counts; the pending session id is kept for a cold start.
class ConnectMachine {
  ConnectMachine(this.callbackKind, this._parser,
      {PollingPolicy polling = const PollingPolicy(), String? storedPendingSessionId})
      : _polling = polling,
        _sessionId = storedPendingSessionId == '' ? null : storedPendingSessionId {
    _phase = _sessionId == null ? _Phase.ready : _Phase.resumable;
  }

  final ConnectCallbackKind callbackKind;
  final ConnectReturnParser _parser;
  final PollingPolicy _polling;

  late _Phase _phase;
  String? _sessionId;
  ConnectScreen _shown = const ConnectReady();
  PollSchedule? _schedule;

  ConnectScreen get screen {
    switch (_phase) {
      case _Phase.ready:
      case _Phase.resumable:
        return const ConnectReady();
      case _Phase.creating:
        return const ConnectStarting();
      case _Phase.inBrowser:
        return const ConnectInBrowser();
      default:
        return _shown;
    }
  }

  /// The session the flow waits on or kept, if any.
  String? get pendingSessionId =>
      const [_Phase.inBrowser, _Phase.confirming, _Phase.resumable].contains(_phase) ? _sessionId : null;

  List<ConnectAction> handle(ConnectEvent event) {
    if (event is ConnectConnectTapEvent) {
      const startable = [_Phase.ready, _Phase.resumable, _Phase.couldNotStart, _Phase.settled];
      if (!startable.contains(_phase)) return const [];
      _phase = _Phase.creating;
      _sessionId = null;
      return [ConnectRenderAction(screen), ConnectCreateSessionAction(callbackKind)];
    }
    if (event is ConnectSessionCreatedEvent) {
      if (_phase != _Phase.creating) return const [];
      if (event.callback != callbackKind) {
        _phase = _Phase.couldNotStart;
        _shown = const ConnectCouldNotStart(RequestFailure.definitive);
        return [ConnectRenderAction(screen)];
      }
      _phase = _Phase.inBrowser;
      _sessionId = event.sessionId;
      return [
        ConnectKeepPendingSessionAction(event.sessionId),
        ConnectRenderAction(screen),
        ConnectOpenBrowserAction(event.hostedUrl),
      ];
    }
    if (event is ConnectSessionFailedEvent) {
      if (_phase != _Phase.creating) return const [];
      _phase = _Phase.couldNotStart;
      _shown = ConnectCouldNotStart(event.failure);
      return [ConnectRenderAction(screen)];
    }
    if (event is ConnectReturnLinkEvent) return _receiveOsReturn(event.url, event.at);
    if (event is ConnectBrowserReturnEvent) return _receiveBrowserDelivery(event.url, event.at);
    if (event is ConnectBrowserClosedEvent) {
      final id = _sessionId;
      return _phase == _Phase.inBrowser && id != null ? _confirm(id, event.at, const ConnectCancelled()) : const [];
    }
    if (event is ConnectSessionStateEvent) return _receiveState(event.sessionId, event.status, event.at);
    if (event is ConnectSessionStateFailedEvent) {
      final schedule = _schedule;
      if (_phase != _Phase.confirming || schedule == null) return const [];
      if (event.failure != RequestFailure.retryable) {
        return [const ConnectForgetPendingSessionAction(), ..._settleUnconfirmed()];
      }
      return [ConnectScheduleTickAction(schedule.answerArrived(event.at, _polling))];
    }
    if (event is ConnectTickEvent) {
      final schedule = _schedule;
      final id = _sessionId;
      if (_phase != _Phase.confirming || schedule == null || id == null) return const [];
      final outcome = schedule.tick(event.at);
      if (outcome == PollOutcome.wait) return const [];
      if (outcome == PollOutcome.request) return [ConnectFetchSessionAction(id)];
      return _settleUnconfirmed();
    }
    if (event is ConnectBackgroundEvent || event is ConnectForegroundEvent) return const [];
    if (event is ConnectRestoreEvent) {
      final given = event.sessionId != null && event.sessionId!.isNotEmpty ? event.sessionId : null;
      final id = _phase == _Phase.ready ? given : (_phase == _Phase.resumable ? (given ?? _sessionId) : null);
      return id != null ? _confirm(id, event.at, const ConnectConfirming(ConnectReturnHint.resumed)) : const [];
    }
    return const [];
  }

  /// The session's own delivery ends the browser phase; the link only chooses the hint, when it names our session.
  List<ConnectAction> _receiveBrowserDelivery(String url, DateTime at) {
    final id = _sessionId;
    if ((_phase != _Phase.inBrowser && _phase != _Phase.resumable) || id == null) return _receiveOsReturn(url, at);
    final parsed = _parser.parse(url);
    final hint = parsed.accepted && parsed.value!.sessionId == id
        ? _hint(parsed.value!.resultCode)
        : ConnectReturnHint.unknown;
    return _confirm(id, at, ConnectConfirming(hint));
  }

  /// An OS link: AppAuth's order; a bare registered return URL is the one refused link that counts.
  List<ConnectAction> _receiveOsReturn(String url, DateTime at) {
    final pendingId = pendingSessionId;
    final parsed = _parser.parse(url);
    if (!parsed.accepted) {
      if (pendingId == null || _phase == _Phase.confirming || !_parser.isBareReturn(url)) return const [];
      return _confirm(pendingId, at, const ConnectConfirming(ConnectReturnHint.unknown));
    }
    final link = parsed.value!;
    if (pendingId == null || link.sessionId != pendingId) return const [];
    if (_phase == _Phase.confirming) {
      // Already asking (the session closed first): the redirect only updates what is shown.
      _shown = ConnectConfirming(_hint(link.resultCode));
      return [ConnectRenderAction(screen)];
    }
    return _confirm(pendingId, at, ConnectConfirming(_hint(link.resultCode)));
  }

  List<ConnectAction> _receiveState(String id, ConnectSessionStatus status, DateTime at) {
    final schedule = _schedule;
    if (_phase != _Phase.confirming || schedule == null || id != _sessionId) return const [];
    final ConnectScreen? settled = switch (status) {
      ConnectSessionStatus.ok => const ConnectConnected(),
      ConnectSessionStatus.error => const ConnectFailed(),
      ConnectSessionStatus.cancelled => const ConnectCancelled(),
      ConnectSessionStatus.expired => const ConnectExpired(),
      ConnectSessionStatus.pending => null,
    };
    if (settled == null) return [ConnectScheduleTickAction(schedule.answerArrived(at, _polling))];
    _phase = _Phase.settled;
    _shown = settled;
    return [const ConnectForgetPendingSessionAction(), ConnectRenderAction(settled)];
  }

  /// Ends polling without an answer; the id stays kept so a later restore asks again.
  List<ConnectAction> _settleUnconfirmed() {
    _phase = _Phase.settled;
    _shown = _shown is ConnectCancelled ? const ConnectCancelled() : const ConnectCheckLater();
    return [ConnectRenderAction(_shown)];
  }

  List<ConnectAction> _confirm(String id, DateTime at, ConnectScreen showing) {
    _phase = _Phase.confirming;
    _sessionId = id;
    _shown = showing;
    _schedule = PollSchedule(at, _polling);
    return [
      ConnectRenderAction(showing),
      ConnectFetchSessionAction(id),
      ConnectScheduleTickAction(at.add(_polling.timeout)),
    ];
  }

  static ConnectReturnHint _hint(String resultCode) => resultCode == 'Ok'
      ? ConnectReturnHint.ok
      : (resultCode == 'Error' ? ConnectReturnHint.error : ConnectReturnHint.cancelled);
}
