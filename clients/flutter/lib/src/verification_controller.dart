// VerificationController: runs a VerificationMachine (BatonClient's VerificationCoordinator): it feeds it events and
// performs its actions, nothing more. Reviewed source: NOT compiled or run here (no Flutter SDK).
import 'package:flutter/foundation.dart';

import 'backend_client.dart';
import 'backend_error.dart';
import 'browser.dart';
import 'configuration.dart';
import 'flow_lifecycle.dart';
import 'journey_web_policy.dart';
import 'polling.dart';
import 'return_links.dart';
import 'stores.dart';
import 'url_policy.dart';
import 'verification_machine.dart';

/// The Privue flow for one workflow. Render [screen] and listen for changes; forward the app's taps and lifecycle.
///
/// The handoff is requested only when [verifyTapped] is called, and presented as soon as it arrives in the camera
/// web view ([CameraJourneyPresenter]); the web view's end (a link on a registered return path, or a close) ends the
/// journey; a link the OS delivers goes through [returnLink].
class VerificationController extends ChangeNotifier {
  VerificationController({
    required BatonConfiguration configuration,
    required String workflow,
    required CameraJourneyPresenter presenter,
    BackendClient? backend,
    DateTime Function()? clock,
    this.onFailure,
  })  : _backend = backend ?? configuration.backendClient(),
        _presenter = presenter,
        _clock = clock ?? DateTime.now,
        _returnUrls = configuration.returnUrls.privue.map(RegisteredReturnUrl.new).toList(),
        _urlPolicy = configuration.urlPolicy,
        _machine = VerificationMachine(
            workflow, VerificationReturnParser(configuration.returnUrls.privue), configuration.polling) {
    _screen = _machine.screen;
  }

  final BackendClient _backend;
  final CameraJourneyPresenter _presenter;
  final DateTime Function() _clock;
  final List<RegisteredReturnUrl> _returnUrls;
  final UrlPolicy _urlPolicy;
  final VerificationMachine _machine;
  final FlowLifecycle _lifecycle = FlowLifecycle();
  late VerificationScreen _screen;

  /// Hears a failure besides the screen (the web view could not open, or failed while open).
  final void Function(BatonFlowFailure failure)? onFailure;

  /// The screen to show now.
  VerificationScreen get screen => _screen;

  /// `Verify` was tapped: creates the handoff now and opens it.
  void verifyTapped() => _receive(VerificationVerifyTapEvent(_clock()));

  /// The OS delivered [url] to the app (app_links), raw: parsed strictly; a bare registered return URL ends the
  /// journey too.
  void returnLink(String url) => _receive(VerificationReturnLinkEvent(url, _clock()));

  /// The app went to the background.
  void backgrounded() => _receive(const VerificationBackgroundEvent());

  /// The app came to the foreground: while the journey is open and no return came, asks the backend once.
  void foregrounded() => _receive(VerificationForegroundEvent(_clock()));

  /// The app restarted into this screen: asks the backend for the current status.
  void restore() => _receive(VerificationRestoreEvent(_clock()));

  /// Cancels timers and the web view; nothing is reported after this.
  void stop() {
    if (_lifecycle.stop()) _presenter.dismiss();
  }

  @override
  void dispose() {
    stop();
    super.dispose();
  }

  void _receive(VerificationEvent event) {
    if (_lifecycle.stopped) return;
    for (final action in _machine.handle(event)) {
      _perform(action);
    }
  }

  void _perform(VerificationAction action) {
    if (action is VerificationRenderAction) {
      if (action.screen == _screen) return;
      _screen = action.screen;
      notifyListeners();
    } else if (action is VerificationRequestHandoffAction) {
      _backend.createVerificationHandoff(action.workflow).then(
            (handoff) => _receive(VerificationHandoffCreatedEvent(handoff.url)),
            onError: (Object error) => _receive(VerificationHandoffFailedEvent(_failureOf(error))),
          );
    } else if (action is VerificationPresentCameraWebViewAction) {
      final policy = JourneyWebPolicy(action.url, _returnUrls, urls: _urlPolicy);
      _lifecycle.present(() => _presenter.present(action.url, policy), _completed);
    } else if (action is VerificationDismissWebViewAction) {
      _lifecycle.dismissed();
      _presenter.dismiss();
    } else if (action is VerificationFetchStatusAction) {
      _backend.verification(action.workflow).then(
            (state) => _receive(VerificationStatusEvent(state.status, _clock())),
            onError: (Object error) => _receive(VerificationStatusFailedEvent(_failureOf(error), _clock())),
          );
    } else if (action is VerificationScheduleTickAction) {
      _lifecycle.schedule(action.at, _clock(), () => _receive(VerificationTickEvent(_clock())));
    }
  }

  /// How the journey ended (only the current presentation's one end gets here: [FlowLifecycle]).
  void _completed(BrowserCompletion end) {
    final now = _clock();
    switch (end.kind) {
      case BrowserCompletionKind.returned:
        _receive(VerificationWebViewReturnEvent(end.link!, now));
      case BrowserCompletionKind.cancelled:
        break;
      case BrowserCompletionKind.failedToOpen:
        onFailure?.call(const BatonFlowFailure('privue', 'browser_failed_to_open'));
        _receive(VerificationBrowserClosedEvent(now));
      case BrowserCompletionKind.failed:
        onFailure?.call(const BatonFlowFailure('privue', 'browser_failed'));
        _receive(VerificationBrowserClosedEvent(now));
      case BrowserCompletionKind.closedWithoutReturn:
      case BrowserCompletionKind.handedToSystem:
        _receive(VerificationBrowserClosedEvent(now));
    }
  }

  static RequestFailure _failureOf(Object error) =>
      error is BackendError ? error.failure : RequestFailure.retryable;
}
