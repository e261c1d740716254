// The Flutter shell of seed 000's platform table (`flutter/handoff.dart`): the OS external browser through
// url_launcher in LaunchMode.externalApplication, the optional generic return handler, and the Chia flow controller.
// Reviewed source, syntax-checked in CI; NOT compiled here (no Dart SDK on the build machine). Its decisions are a
// transcription of the TypeScript and Kotlin shells, which run the shared Conformance/ vectors.
import 'dart:async';

import 'package:url_launcher/url_launcher.dart';

import 'src/catalog_card.dart';
import 'src/chia_machine.dart';
import 'src/return_links.dart';
import 'src/retry.dart';

export 'src/catalog_card.dart';
export 'src/chia_machine.dart';
export 'src/return_links.dart';
export 'src/retry.dart';

/// Opens [url] once in the OS external browser: never a WebView, never a Custom Tab with a bridge, never a
/// prefetch. The caller must not keep the URL.
Future<bool> openExternal(SensitiveUrl url) {
  return launchUrl(Uri.parse(url.reveal()), mode: LaunchMode.externalApplication);
}

/// Chia's optional generic return: validates only the registered host, ignores query and fragment, and always
/// routes to marketplace home; nothing about completion is shown or recorded.
class GenericReturnHandler {
  GenericReturnHandler(String registeredHost, this.routeToMarketplaceHome) : _parser = GenericReturnParser(registeredHost);

  final GenericReturnParser _parser;
  final void Function() routeToMarketplaceHome;

  /// Routes home when [url] is the generic return; answers whether it did.
  bool handle(String? url) {
    if (url == null || !_parser.parse(url).accepted) return false;
    routeToMarketplaceHome();
    return true;
  }

  /// Follows a stream of delivered links (for example `AppLinks().stringLinkStream` from the app_links package).
  StreamSubscription<String> listen(Stream<String> links) => links.listen(handle);
}

/// What a share request came back with: the journey URL, or what the HTTP layer saw.
class ShareResult {
  const ShareResult.opened(SensitiveUrl this.url) : outcome = null;
  const ShareResult.failed(ShareOutcome this.outcome) : url = null;

  final SensitiveUrl? url;
  final ShareOutcome? outcome;
}

/// The app's side of the Chia flow: the partner backend, the attempt store, the clock.
abstract class ChiaEffects {
  /// `GET /v2/catalog`: this item's card JSON, or null when it is not listed; throws when unreachable.
  Future<Object?> fetchCard(String catalogItemId);

  /// `POST /v2/handoff-sessions` with exactly [body] and the attempt's `Idempotency-Key`.
  Future<ShareResult> sendShare(PendingAttempt attempt, String body);

  /// Persist the attempt (body + key; never a URL) before it is sent.
  void saveAttempt(PendingAttempt attempt);
  void discardAttempt();
  /// The backend answered 401: sign the user in again (the next share tap resends the kept attempt).
  void requestSignIn();
  void routeToMarketplaceHome();
  DateTime now();

  /// A fresh random UUIDv4.
  String newKey();
}

/// Runs one card's [ChiaHandoffMachine]: delivers events, performs its actions in order, reports each screen.
class ChiaHandoffController {
  ChiaHandoffController(this.machine, this.effects, this.onScreen);

  final ChiaHandoffMachine machine;
  final ChiaEffects effects;
  final void Function(ChiaScreen) onScreen;
  Timer? _timer;

  void callToAction() => send(const CallToActionTapped());
  void share() => send(ShareTapped(effects.now(), effects.newKey()));
  void continueWithoutSharing() => send(const ContinueTapped());
  void foreground() => send(const Foregrounded());

  void send(ChiaEvent event) {
    for (final action in machine.handle(event)) {
      _perform(action);
    }
  }

  void _perform(ChiaAction action) {
    if (action is Render) {
      onScreen(action.screen);
    } else if (action is FetchProjection) {
      effects.fetchCard(machine.catalogItemId).then(
          (json) => send(ProjectionLoaded(json == null ? null : CatalogCard.decode(json))),
          onError: (Object _) => send(const ProjectionFailed()));
    } else if (action is SavePendingAttempt) {
      effects.saveAttempt(action.attempt);
    } else if (action is SendShareRequest) {
      effects.sendShare(action.attempt, action.attempt.bodyJson()).then((result) {
        final url = result.url;
        send(url != null ? ShareSucceeded(url) : ShareFailed(result.outcome!, effects.now()));
      }, onError: (Object _) => send(ShareFailed(const ShareOutcome.transport('connect'), effects.now())));
    } else if (action is DiscardPendingAttempt) {
      effects.discardAttempt();
    } else if (action is OpenExternalBrowser) {
      openExternal(action.url).then((opened) {
        if (!opened) send(const BrowserFailedToOpen());
      });
    } else if (action is ScheduleTick) {
      _timer?.cancel();
      _timer = Timer(action.at.difference(effects.now()), () => send(Tick(effects.now())));
    } else if (action is RouteToMarketplaceHome) {
      effects.routeToMarketplaceHome();
    } else if (action is RequestSignIn) {
      effects.requestSignIn();
    }
  }
}
