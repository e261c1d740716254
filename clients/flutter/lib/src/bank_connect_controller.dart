// BankConnectController: runs a ConnectMachine (BatonClient's ConnectCoordinator): it feeds it events and performs
// its actions, nothing more. Reviewed source: NOT compiled or run here (no Flutter SDK).
import 'package:flutter/foundation.dart';

import 'auth_session_presenter.dart';
import 'backend_client.dart';
import 'backend_error.dart';
import 'browser.dart';
import 'configuration.dart';
import 'flow_lifecycle.dart';
import 'connect_callback.dart';
import 'connect_machine.dart';
import 'polling.dart';
import 'return_links.dart';
import 'stores.dart';

/// The BB connect flow. Render [screen] and listen for changes; forward the app's taps, links and lifecycle.
///
/// BB's hosted URL opens only in an authentication session ([AuthSessionPresenter]; by default flutter_web_auth_2),
/// catching [callback]: the https return on iOS 17.4+ and Android, the custom scheme below iOS 17.4. The session's
/// end (a link, accepted or refused, or a close) ends the browser phase and the backend is asked about the session
/// id it returned. The pending session id is kept in the configuration's [BatonStorage] so a cold start confirms
/// it: create the controller with [BankConnectController.launch], then call [restore].
class BankConnectController extends ChangeNotifier {
  BankConnectController({
    required BatonConfiguration configuration,
    required this.callback,
    AuthSessionPresenter presenter = const FlutterWebAuth2Presenter(),
    BackendClient? backend,
    String? pendingSessionId,
    DateTime Function()? clock,
    this.onFailure,
  })  : _backend = backend ?? configuration.backendClient(),
        _presenter = presenter,
        _storage = configuration.storage,
        _keys = configuration.keys,
        _clock = clock ?? DateTime.now,
        _machine = ConnectMachine(callback.kind, ConnectReturnParser(_bbOf(configuration).all),
            polling: configuration.polling, storedPendingSessionId: pendingSessionId) {
    _screen = _machine.screen;
  }

  /// A controller for this device's callback (see [deviceSupportsHttpsCallback]) with the session id the store
  /// kept, so a return link that launched the app confirms it.
  static Future<BankConnectController> launch({
    required BatonConfiguration configuration,
    AuthSessionPresenter presenter = const FlutterWebAuth2Presenter(),
    BackendClient? backend,
    bool? httpsCallback,
    void Function(BatonFlowFailure failure)? onFailure,
  }) async {
    final callback = ConnectCallback.choose(_bbOf(configuration),
        deviceSupportsHttpsCallback: httpsCallback ?? deviceSupportsHttpsCallback());
    String? kept;
    try {
      kept = await configuration.storage.getItem(configuration.keys.bbPendingSession);
    } catch (_) {
      kept = null;
      onFailure?.call(const BatonFlowFailure('bb', 'storage_failed'));
    }
    return BankConnectController(
        configuration: configuration,
        callback: callback,
        presenter: presenter,
        backend: backend,
        pendingSessionId: kept,
        onFailure: onFailure);
  }

  static BbReturnUrls _bbOf(BatonConfiguration configuration) {
    final bb = configuration.returnUrls.bb;
    if (bb == null) throw const ReturnUrlRegistrationError('none_registered');
    return bb;
  }

  /// Hears a failure besides the screen (the session could not open or failed, the store failed).
  final void Function(BatonFlowFailure failure)? onFailure;

  /// What this device's authentication session catches.
  final ConnectCallback callback;
  final BackendClient _backend;
  final AuthSessionPresenter _presenter;
  final BatonStorage _storage;
  final BatonStorageKeys _keys;
  final DateTime Function() _clock;
  final ConnectMachine _machine;
  final FlowLifecycle _lifecycle = FlowLifecycle();
  Future<void> _writes = Future.value();
  late ConnectScreen _screen;

  /// The screen to show now.
  ConnectScreen get screen => _screen;

  /// The session the flow waits on, if any.
  String? get pendingSessionId => _machine.pendingSessionId;

  /// `Connect` was tapped: creates the session now and opens it.
  void connectTapped() => _receive(ConnectConnectTapEvent(_clock()));

  /// The OS delivered [url] to the app (app_links), raw: checked strictly (registered URL, a pending session, the
  /// same id); a bare registered return URL (the landing page's link) ends the browser phase too.
  void returnLink(String url) => _receive(ConnectReturnLinkEvent(url, _clock()));

  void backgrounded() => _receive(const ConnectBackgroundEvent());

  void foregrounded() => _receive(ConnectForegroundEvent(_clock()));

  /// After a (cold) start: asks the backend about the session kept in storage, if any.
  Future<void> restore() async {
    String? id;
    try {
      id = await _storage.getItem(_keys.bbPendingSession);
    } catch (_) {
      onFailure?.call(const BatonFlowFailure('bb', 'storage_failed'));
    }
    _receive(ConnectRestoreEvent(id, _clock()));
  }

  /// Cancels timers; nothing is reported after this (an open authentication session ends by itself).
  void stop() {
    _lifecycle.stop();
  }

  /// Completes when every store write started so far has finished.
  Future<void> get writesSettled => _writes;

  @override
  void dispose() {
    stop();
    super.dispose();
  }

  void _receive(ConnectEvent event) {
    if (_lifecycle.stopped) return;
    for (final action in _machine.handle(event)) {
      _perform(action);
    }
  }

  void _perform(ConnectAction action) {
    if (action is ConnectRenderAction) {
      if (action.screen == _screen) return;
      _screen = action.screen;
      notifyListeners();
    } else if (action is ConnectCreateSessionAction) {
      _backend.createConnectSession(action.callback).then(
            (session) => _receive(ConnectSessionCreatedEvent(session.sessionId, session.hostedUrl, session.callbackKind)),
            onError: (Object error) => _receive(ConnectSessionFailedEvent(_failureOf(error))),
          );
    } else if (action is ConnectOpenBrowserAction) {
      _lifecycle.present(() => _presenter.present(action.url, callback), _completed);
    } else if (action is ConnectFetchSessionAction) {
      _backend.connectSession(action.sessionId).then(
            (state) => _receive(ConnectSessionStateEvent(state.sessionId, state.status, _clock())),
            onError: (Object error) => _receive(ConnectSessionStateFailedEvent(_failureOf(error), _clock())),
          );
    } else if (action is ConnectScheduleTickAction) {
      _lifecycle.schedule(action.at, _clock(), () => _receive(ConnectTickEvent(_clock())));
    } else if (action is ConnectKeepPendingSessionAction) {
      final id = action.sessionId;
      _writes = _writes.then((_) => _storage.setItem(_keys.bbPendingSession, id)).catchError((Object _) {
        onFailure?.call(const BatonFlowFailure('bb', 'storage_failed'));
      });
    } else if (action is ConnectForgetPendingSessionAction) {
      _writes = _writes.then((_) => _storage.removeItem(_keys.bbPendingSession)).catchError((Object _) {
        onFailure?.call(const BatonFlowFailure('bb', 'storage_failed'));
      });
    }
  }

  /// How the session ended (only the current presentation's one end gets here: [FlowLifecycle]). Closed, failed or
  /// never opened: the cancelled path, and the backend is asked all the same.
  void _completed(BrowserCompletion end) {
    final now = _clock();
    switch (end.kind) {
      case BrowserCompletionKind.returned:
        _receive(ConnectBrowserReturnEvent(end.link!, now));
      case BrowserCompletionKind.cancelled:
        break;
      case BrowserCompletionKind.failedToOpen:
        onFailure?.call(const BatonFlowFailure('bb', 'browser_failed_to_open'));
        _receive(ConnectBrowserClosedEvent(now));
      case BrowserCompletionKind.failed:
        onFailure?.call(const BatonFlowFailure('bb', 'browser_failed'));
        _receive(ConnectBrowserClosedEvent(now));
      case BrowserCompletionKind.closedWithoutReturn:
      case BrowserCompletionKind.handedToSystem:
        _receive(ConnectBrowserClosedEvent(now));
    }
  }

  static RequestFailure _failureOf(Object error) =>
      error is BackendError ? error.failure : RequestFailure.retryable;
}
