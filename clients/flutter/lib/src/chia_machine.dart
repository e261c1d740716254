// A transcription of clients/react-native/src/core/chiaMachine.ts (itself of the Kotlin shell's and BatonClient's
// ChiaHandoffMachine). Not compiled here: its TypeScript and Kotlin originals run the shared vectors.
import 'catalog_card.dart';
import 'return_links.dart';
import 'retry.dart';

/// What the Chia handoff screen shows, and which actions can be used now.
class ChiaScreen {
  const ChiaScreen(this.content, {this.card, this.shareEnabled = false, this.continueEnabled = false, this.notice});

  /// card, loading, hidden, unavailable, or the handoff's mode.
  final String content;
  final CatalogCard? card;
  final bool shareEnabled;
  final bool continueEnabled;

  /// share_uncertain, share_retry_later, sign_in_required, or null.
  final String? notice;

  List<String> get actionLabels => card == null ? const [] : card!.handoff.actionLabels;
}

abstract class ChiaEvent {
  const ChiaEvent();
}

class CallToActionTapped extends ChiaEvent {
  const CallToActionTapped();
}

class ProjectionLoaded extends ChiaEvent {
  const ProjectionLoaded(this.card);
  final CatalogCard? card;
}

class ProjectionFailed extends ChiaEvent {
  const ProjectionFailed();
}

class ShareTapped extends ChiaEvent {
  const ShareTapped(this.at, this.freshKey);
  final DateTime at;
  final String freshKey;
}

class ContinueTapped extends ChiaEvent {
  const ContinueTapped();
}

class ShareSucceeded extends ChiaEvent {
  const ShareSucceeded(this.url);
  final SensitiveUrl url;
}

class ShareFailed extends ChiaEvent {
  const ShareFailed(this.outcome, this.at);
  final ShareOutcome outcome;
  final DateTime at;
}

class BrowserFailedToOpen extends ChiaEvent {
  const BrowserFailedToOpen();
}

class ReturnLinkDelivered extends ChiaEvent {
  const ReturnLinkDelivered(this.url);
  final String url;
}

class Foregrounded extends ChiaEvent {
  const Foregrounded();
}

class Restored extends ChiaEvent {
  const Restored(this.attempt);
  final PendingAttempt? attempt;
}

class Tick extends ChiaEvent {
  const Tick(this.at);
  final DateTime at;
}

abstract class ChiaAction {
  const ChiaAction();
}

class Render extends ChiaAction {
  const Render(this.screen);
  final ChiaScreen screen;
}

class FetchProjection extends ChiaAction {
  const FetchProjection();
}

class SavePendingAttempt extends ChiaAction {
  const SavePendingAttempt(this.attempt);
  final PendingAttempt attempt;
}

class SendShareRequest extends ChiaAction {
  const SendShareRequest(this.attempt);
  final PendingAttempt attempt;
}

class DiscardPendingAttempt extends ChiaAction {
  const DiscardPendingAttempt();
}

class OpenExternalBrowser extends ChiaAction {
  const OpenExternalBrowser(this.url);
  final SensitiveUrl url;
}

class ScheduleTick extends ChiaAction {
  const ScheduleTick(this.at);
  final DateTime at;
}

class RouteToMarketplaceHome extends ChiaAction {
  const RouteToMarketplaceHome();
}

/// The backend answered 401: ask the app to sign the user in again; the kept attempt is resent by the next share tap.
class RequestSignIn extends ChiaAction {
  const RequestSignIn();
}

/// The Chia handoff for one catalog card (seed 000 "Tap sequence"), a pure state machine; see the TypeScript
/// original for the rules it keeps (no request before the tap, double taps join, body and key kept across network
/// error/408/429/5xx/401, Retry-After wait keeps "Continue without sharing" usable and joins a share tap to the
/// pending retry, the journey URL opened once and never kept).
class ChiaHandoffMachine {
  ChiaHandoffMachine(this.catalogItemId, this.genericReturn);

  final String catalogItemId;
  final GenericReturnParser? genericReturn;

  String _phase = 'card';
  CatalogCard? _card;
  PendingAttempt? _pending;
  DateTime? _retryNotBefore;
  bool _retryJoined = false;
  bool _signInRequired = false;

  /// The attempt kept for retries, if any.
  PendingAttempt? get pending => _pending;

  ChiaScreen get screen {
    switch (_phase) {
      case 'card':
      case 'loading':
      case 'hidden':
      case 'unavailable':
        return ChiaScreen(_phase);
      case 'presenting':
        final card = _card!;
        final share = card.handoff.isShare;
        String? notice;
        if (_signInRequired) {
          notice = 'sign_in_required';
        } else if (_pending != null && share) {
          notice = _retryNotBefore == null ? 'share_uncertain' : 'share_retry_later';
        }
        return ChiaScreen(card.handoff.mode,
            card: card, shareEnabled: share && !_retryJoined, continueEnabled: true, notice: notice);
      default:
        return ChiaScreen(_card!.handoff.mode, card: _card);
    }
  }

  List<ChiaAction> handle(ChiaEvent event) {
    if (event is CallToActionTapped) {
      return _phase == 'card' || _phase == 'unavailable' ? _refresh() : const [];
    }
    if (event is ProjectionLoaded) return _phase == 'loading' ? _present(event.card) : const [];
    if (event is ProjectionFailed) {
      if (_phase != 'loading') return const [];
      _phase = 'unavailable';
      return [Render(screen)];
    }
    if (event is ShareTapped) return _share(event.at, event.freshKey);
    if (event is ContinueTapped) return _continueWithoutSharing();
    if (event is ShareSucceeded) {
      if (_phase != 'sharing') return const [];
      _phase = 'opened';
      _pending = null;
      return [const DiscardPendingAttempt(), Render(screen), OpenExternalBrowser(event.url)];
    }
    if (event is ShareFailed) {
      return _phase == 'sharing' ? _shareFailed(RetryDecision.classify(event.outcome, event.at), event.at) : const [];
    }
    if (event is BrowserFailedToOpen) return _phase == 'opened' ? _refresh() : const [];
    if (event is ReturnLinkDelivered) {
      final parser = genericReturn;
      return parser != null && parser.parse(event.url).accepted ? const [RouteToMarketplaceHome()] : const [];
    }
    if (event is Foregrounded) {
      return const ['card', 'loading', 'sharing'].contains(_phase) ? const [] : _refresh();
    }
    if (event is Restored) {
      final attempt = event.attempt;
      if (attempt != null && attempt.catalogItemId == catalogItemId && _pending == null) _pending = attempt;
      return _refresh();
    }
    if (event is Tick) return _tick(event.at);
    return const [];
  }

  List<ChiaAction> _refresh() {
    _phase = 'loading';
    _retryNotBefore = null;
    _retryJoined = false;
    _signInRequired = false;
    return [Render(screen), const FetchProjection()];
  }

  List<ChiaAction> _present(CatalogCard? fresh) {
    if (fresh == null || fresh.id != catalogItemId) {
      _phase = 'hidden';
      return [..._discardPending(), Render(screen)];
    }
    final actions = <ChiaAction>[];
    final attempt = _pending;
    // A kept attempt survives only while it still matches the projection it was made for.
    final matches = fresh.handoff.isShare &&
        attempt != null &&
        attempt.catalogItemId == fresh.id &&
        attempt.disclosureVersion == fresh.handoff.disclosureVersion;
    if (attempt != null && !matches) actions.addAll(_discardPending());
    _card = fresh;
    _phase = 'presenting';
    actions.add(Render(screen));
    return actions;
  }

  List<ChiaAction> _discardPending() {
    if (_pending == null) return const [];
    _pending = null;
    return const [DiscardPendingAttempt()];
  }

  List<ChiaAction> _share(DateTime at, String freshKey) {
    final card = _card;
    if (_phase != 'presenting' || card == null || !card.handoff.isShare) return const [];
    if (_retryNotBefore != null && _pending != null) {
      // During a Retry-After wait the tap joins the pending retry: no new key, nothing sent before the wait ends.
      if (_retryJoined) return const [];
      _retryJoined = true;
      return [Render(screen)];
    }
    _phase = 'sharing';
    _signInRequired = false;
    final actions = <ChiaAction>[Render(screen)];
    var attempt = _pending;
    if (attempt == null) {
      attempt = PendingAttempt(freshKey, card.id, card.handoff.disclosureVersion, rfc3339(at));
      _pending = attempt;
      actions.add(SavePendingAttempt(attempt));
    }
    actions.add(SendShareRequest(attempt));
    return actions;
  }

  List<ChiaAction> _continueWithoutSharing() {
    final card = _card;
    if (_phase != 'presenting' || card == null) return const [];
    _phase = 'opened';
    _retryNotBefore = null;
    _retryJoined = false;
    return [Render(screen), OpenExternalBrowser(SensitiveUrl(card.handoff.neutralUrl))];
  }

  List<ChiaAction> _shareFailed(RetryDecision decision, DateTime at) {
    switch (decision.decision) {
      case 'sign_in_and_retry':
        // The first attempt may have reached Chia: keep body and key for the retry after signing in.
        _phase = 'presenting';
        _signInRequired = true;
        return [const RequestSignIn(), Render(screen)];
      case 'refetch_projection':
        return [..._discardPending(), ..._refresh()];
      default:
        // retry, or done without a readable URL (the session may exist): keep body and key.
        _phase = 'presenting';
        final actions = <ChiaAction>[];
        final after = decision.decision == 'retry' ? decision.retryAfterSeconds : null;
        if (after != null && after > 0) {
          final notBefore = at.add(Duration(seconds: after));
          _retryNotBefore = notBefore;
          actions.add(ScheduleTick(notBefore));
        }
        actions.add(Render(screen));
        return actions;
    }
  }

  List<ChiaAction> _tick(DateTime now) {
    final notBefore = _retryNotBefore;
    if (notBefore == null || now.isBefore(notBefore)) return const [];
    _retryNotBefore = null;
    if (_phase != 'presenting') return const [];
    final attempt = _pending;
    final joined = _retryJoined;
    _retryJoined = false;
    if (joined && attempt != null) {
      _phase = 'sharing';
      return [Render(screen), SendShareRequest(attempt)];
    }
    return [Render(screen)];
  }
}
