// ChiaHandoffController: runs a ChiaHandoffMachine for one catalog card (BatonClient's ChiaHandoffCoordinator).
// Reviewed source: NOT compiled or run here (no Flutter SDK).
import 'dart:async';

import 'package:flutter/foundation.dart';

import 'backend_client.dart';
import 'backend_error.dart';
import 'browser.dart';
import 'chia_machine.dart';
import 'configuration.dart';
import 'external_browser_presenter.dart';
import 'flow_lifecycle.dart';
import 'retry.dart';
import 'return_links.dart';
import 'stores.dart';
import 'uuid.dart';

/// The Chia handoff for one card. Render [screen] (with `CatalogCardView`) and listen for changes.
///
/// Nothing is requested before [callToActionTapped]; the share's key and body are persisted (awaited) before the
/// request leaves and kept across network errors, 408, 429, 5xx and 401; double taps join; the journey URL is opened
/// once in the OS external browser and never kept; a failed open refetches the projection.
class ChiaHandoffController extends ChangeNotifier {
  ChiaHandoffController({
    required BatonConfiguration configuration,
    required String catalogItemId,
    ExternalBrowserPresenter browser = const UrlLauncherPresenter(),
    BackendClient? backend,
    this.onSignInRequired,
    this.onMarketplaceHome,
    DateTime Function()? clock,
    String Function()? newKey,
    this.onFailure,
  })  : _backend = backend ?? configuration.backendClient(),
        _browser = browser,
        _storage = configuration.storage,
        _keys = configuration.keys,
        _clock = clock ?? DateTime.now,
        _newKey = newKey ?? newUuidV4,
        _machine = ChiaHandoffMachine(
            catalogItemId,
            configuration.returnUrls.chiaGenericReturnHost == null
                ? null
                : GenericReturnParser(configuration.returnUrls.chiaGenericReturnHost!)) {
    _screen = _machine.screen;
  }

  final BackendClient _backend;
  final ExternalBrowserPresenter _browser;
  final BatonStorage _storage;
  final BatonStorageKeys _keys;
  final DateTime Function() _clock;
  final String Function() _newKey;
  final ChiaHandoffMachine _machine;
  final FlowLifecycle _lifecycle = FlowLifecycle();
  late ChiaScreen _screen;

  /// The backend answered 401: sign the user in again; the next share tap resends the kept attempt.
  final void Function()? onSignInRequired;

  /// The generic return arrived: route to marketplace home (the only route it has).
  final void Function()? onMarketplaceHome;

  /// Hears a failure besides the screen (a browser that did not open, an attempt that could not be persisted).
  final void Function(BatonFlowFailure failure)? onFailure;

  /// The screen to show now.
  ChiaScreen get screen => _screen;

  void callToActionTapped() => _receive(const ChiaCtaEvent());

  void shareTapped() => _receive(ChiaShareTapEvent(_clock(), _newKey()));

  void continueTapped() => _receive(const ChiaContinueTapEvent());

  /// A link the OS delivered: only the registered generic return does anything (marketplace home).
  void returnLink(String url) => _receive(ChiaReturnLinkEvent(url));

  void backgrounded() => _receive(const ChiaBackgroundEvent());

  /// Back in the app: refetch and render the projection again, inferring nothing from focus.
  void foregrounded() => _receive(const ChiaForegroundEvent());

  /// After a (cold) start: a share attempt kept for this card is resent unchanged (and only then is the backend
  /// asked anything; otherwise nothing is requested before the tap).
  Future<void> restore() async {
    PendingAttempt? kept;
    try {
      kept = decodePendingAttempt(await _storage.getItem(_keys.chiaPendingAttempt));
    } catch (_) {
      onFailure?.call(const BatonFlowFailure('chia', 'storage_failed'));
    }
    if (kept != null && kept.catalogItemId == _machine.catalogItemId) _receive(ChiaRestoredEvent(kept));
  }

  void stop() {
    _lifecycle.stop();
  }

  @override
  void dispose() {
    stop();
    super.dispose();
  }

  void _receive(ChiaEvent event) {
    if (_lifecycle.stopped) return;
    unawaited(_performAll(_machine.handle(event)));
  }

  /// Performs [actions] in order; a save is finished before the send that follows it.
  Future<void> _performAll(List<ChiaAction> actions) async {
    for (final action in actions) {
      if (action is ChiaSavePendingAttemptAction) {
        try {
          await _storage.setItem(_keys.chiaPendingAttempt, encodePendingAttempt(action.attempt));
        } catch (_) {
          // The attempt stays in memory for this run's retries; the app hears that a restart would lose it.
          onFailure?.call(const BatonFlowFailure('chia', 'attempt_not_persisted'));
        }
      } else if (action is ChiaDiscardPendingAttemptAction) {
        try {
          await _storage.removeItem(_keys.chiaPendingAttempt);
        } catch (_) {
          onFailure?.call(const BatonFlowFailure('chia', 'storage_failed'));
        }
      } else {
        _perform(action);
      }
    }
  }

  void _perform(ChiaAction action) {
    if (action is ChiaRenderAction) {
      if (action.screen == _screen) return;
      _screen = action.screen;
      notifyListeners();
    } else if (action is ChiaFetchProjectionAction) {
      final id = _machine.catalogItemId;
      _backend.catalog().then(
            (cards) => _receive(ChiaProjectionEvent(cards.where((card) => card.id == id).firstOrNull)),
            onError: (Object _) => _receive(const ChiaProjectionFailedEvent()),
          );
    } else if (action is ChiaSendShareRequestAction) {
      _backend.createHandoffSession(action.attempt).then(
            (session) => _receive(ChiaShareSucceededEvent(session.url)),
            onError: (Object error) => _receive(ChiaShareFailedEvent(
                error is BackendError ? error.shareOutcome : const ShareOutcome.transport('connect'), _clock())),
          );
    } else if (action is ChiaOpenExternalBrowserAction) {
      _browser.present(action.url).then((end) {
        if (end.kind == BrowserCompletionKind.handedToSystem) return;
        onFailure?.call(const BatonFlowFailure('chia', 'browser_failed_to_open'));
        _receive(const ChiaBrowserFailedEvent());
      });
    } else if (action is ChiaScheduleTickAction) {
      _lifecycle.schedule(action.at, _clock(), () => _receive(ChiaTickEvent(_clock())));
    } else if (action is ChiaRouteToMarketplaceHomeAction) {
      onMarketplaceHome?.call();
    } else if (action is ChiaRequestSignInAction) {
      onSignInRequired?.call();
    }
  }
}
