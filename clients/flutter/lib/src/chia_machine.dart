// A transcription of clients/react-native/src/core/chiaMachine.ts (itself of the Kotlin shell's and BatonClient's
// ChiaHandoffMachine). Not compiled here: its TypeScript and Kotlin originals run the shared vectors.
import 'catalog_card.dart';
import 'return_links.dart';
import 'retry.dart';

/// A notice shown with the handoff; in each, sharing again resends the same request.
enum ChiaNotice {
  /// The share's outcome is unknown.
  shareUncertain('share_uncertain'),

  /// The backend asked to wait; a share tap joins the retry.
  shareRetryLater('share_retry_later'),

  /// The backend no longer accepts the app's sign-in.
  signInRequired('sign_in_required');

  const ChiaNotice(this.wire);
  final String wire;
}

/// What the Chia handoff screen shows (Swift `ChiaScreen`), and which actions can be used now.
sealed class ChiaScreen {
  const ChiaScreen._(this.content, {this.card, this.shareEnabled = false, this.continueEnabled = false, this.notice});

  /// The TypeScript shell's discriminant: card, loading, hidden, unavailable, or the handoff's mode.
  final String content;

  /// The projection fetched at tap time (the two handoff screens only).
  final CatalogCard? card;

  /// Whether `Share selection and continue` can be tapped now.
  final bool shareEnabled;

  /// Whether the neutral action (`Continue to Chia` / `Continue without sharing`) can be tapped now.
  final bool continueEnabled;
  final ChiaNotice? notice;

  List<String> get actionLabels => card == null ? const [] : card!.handoff.actionLabels;

  @override
  bool operator ==(Object other) =>
      other is ChiaScreen &&
      other.content == content &&
      identical(other.card, card) &&
      other.shareEnabled == shareEnabled &&
      other.continueEnabled == continueEnabled &&
      other.notice == notice;

  @override
  int get hashCode => Object.hash(content, card, shareEnabled, continueEnabled, notice);
}

/// Only the card with its call to action (nothing fetched yet).
final class ChiaCard extends ChiaScreen {
  const ChiaCard() : super._('card');
}

/// Fetching the projection after the tap.
final class ChiaLoading extends ChiaScreen {
  const ChiaLoading() : super._('loading');
}

/// Not in the user's catalog: render nothing.
final class ChiaHidden extends ChiaScreen {
  const ChiaHidden() : super._('hidden');
}

/// The projection could not be fetched: the blocks without any action; the call to action retries.
final class ChiaUnavailable extends ChiaScreen {
  const ChiaUnavailable() : super._('unavailable');
}

/// The `neutral_only` handoff: one action, `Continue to Chia`.
final class ChiaNeutralOnly extends ChiaScreen {
  const ChiaNeutralOnly(CatalogCard card, {bool continueEnabled = false, ChiaNotice? notice})
      : super._('neutral_only', card: card, continueEnabled: continueEnabled, notice: notice);
}

/// The `share_or_neutral` handoff: `Share selection and continue` and `Continue without sharing`, equally usable.
final class ChiaShareOrNeutral extends ChiaScreen {
  const ChiaShareOrNeutral(CatalogCard card,
      {bool shareEnabled = false, bool continueEnabled = false, ChiaNotice? notice})
      : super._('share_or_neutral',
            card: card, shareEnabled: shareEnabled, continueEnabled: continueEnabled, notice: notice);
}

/// The handoff screen for [card]'s mode.
ChiaScreen _handoffScreen(CatalogCard card, {bool shareEnabled = false, bool continueEnabled = false, ChiaNotice? notice}) =>
    card.handoff.isShare
        ? ChiaShareOrNeutral(card, shareEnabled: shareEnabled, continueEnabled: continueEnabled, notice: notice)
        : ChiaNeutralOnly(card, continueEnabled: continueEnabled, notice: notice);

/// What happened: the app's taps and lifecycle, the backend's answers, the browser, the timer.
sealed class ChiaEvent {
  const ChiaEvent();
}

/// The card's call to action was tapped.
final class ChiaCtaEvent extends ChiaEvent {
  const ChiaCtaEvent();
}

/// The projection fetched at tap time: this card, or null when it is no longer listed.
final class ChiaProjectionEvent extends ChiaEvent {
  const ChiaProjectionEvent(this.card);
  final CatalogCard? card;
}

final class ChiaProjectionFailedEvent extends ChiaEvent {
  const ChiaProjectionFailedEvent();
}

/// `Share selection and continue` was tapped at [at]; [freshKey] is a new UUIDv4, used only if no attempt is kept.
final class ChiaShareTapEvent extends ChiaEvent {
  const ChiaShareTapEvent(this.at, this.freshKey);
  final DateTime at;
  final String freshKey;
}

/// The neutral action was tapped.
final class ChiaContinueTapEvent extends ChiaEvent {
  const ChiaContinueTapEvent();
}

final class ChiaShareSucceededEvent extends ChiaEvent {
  const ChiaShareSucceededEvent(this.url);
  final SensitiveUrl url;
}

final class ChiaShareFailedEvent extends ChiaEvent {
  const ChiaShareFailedEvent(this.outcome, this.at);
  final ShareOutcome outcome;
  final DateTime at;
}

/// The OS browser could not be opened.
final class ChiaBrowserFailedEvent extends ChiaEvent {
  const ChiaBrowserFailedEvent();
}

/// A link the OS delivered (the generic return, if approved).
final class ChiaReturnLinkEvent extends ChiaEvent {
  const ChiaReturnLinkEvent(this.url);
  final String url;
}

final class ChiaBackgroundEvent extends ChiaEvent {
  const ChiaBackgroundEvent();
}

final class ChiaForegroundEvent extends ChiaEvent {
  const ChiaForegroundEvent();
}

/// The app restarted; [attempt] is the share kept from before, if any.
final class ChiaRestoredEvent extends ChiaEvent {
  const ChiaRestoredEvent(this.attempt);
  final PendingAttempt? attempt;
}

final class ChiaTickEvent extends ChiaEvent {
  const ChiaTickEvent(this.at);
  final DateTime at;
}

/// What the controller must do, in order.
sealed class ChiaAction {
  const ChiaAction();
}

final class ChiaRenderAction extends ChiaAction {
  const ChiaRenderAction(this.screen);
  final ChiaScreen screen;
}

final class ChiaFetchProjectionAction extends ChiaAction {
  const ChiaFetchProjectionAction();
}

/// Persist the attempt (body + key; never a URL); the controller finishes this before the send that follows.
final class ChiaSavePendingAttemptAction extends ChiaAction {
  const ChiaSavePendingAttemptAction(this.attempt);
  final PendingAttempt attempt;
}

final class ChiaSendShareRequestAction extends ChiaAction {
  const ChiaSendShareRequestAction(this.attempt);
  final PendingAttempt attempt;
}

final class ChiaDiscardPendingAttemptAction extends ChiaAction {
  const ChiaDiscardPendingAttemptAction();
}

final class ChiaOpenExternalBrowserAction extends ChiaAction {
  const ChiaOpenExternalBrowserAction(this.url);
  final SensitiveUrl url;
}

final class ChiaScheduleTickAction extends ChiaAction {
  const ChiaScheduleTickAction(this.at);
  final DateTime at;
}

final class ChiaRouteToMarketplaceHomeAction extends ChiaAction {
  const ChiaRouteToMarketplaceHomeAction();
}

/// The backend answered 401: ask the app to sign the user in again; the kept attempt is resent by the next share tap.
final class ChiaRequestSignInAction extends ChiaAction {
  const ChiaRequestSignInAction();
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
        return const ChiaCard();
      case 'loading':
        return const ChiaLoading();
      case 'hidden':
        return const ChiaHidden();
      case 'unavailable':
        return const ChiaUnavailable();
      case 'presenting':
        final card = _card!;
        final share = card.handoff.isShare;
        ChiaNotice? notice;
        if (_signInRequired) {
          notice = ChiaNotice.signInRequired;
        } else if (_pending != null && share) {
          notice = _retryNotBefore == null ? ChiaNotice.shareUncertain : ChiaNotice.shareRetryLater;
        }
        return _handoffScreen(card, shareEnabled: share && !_retryJoined, continueEnabled: true, notice: notice);
      default:
        return _handoffScreen(_card!);
    }
  }

  List<ChiaAction> handle(ChiaEvent event) {
    if (event is ChiaCtaEvent) {
      return _phase == 'card' || _phase == 'unavailable' ? _refresh() : const [];
    }
    if (event is ChiaProjectionEvent) return _phase == 'loading' ? _present(event.card) : const [];
    if (event is ChiaProjectionFailedEvent) {
      if (_phase != 'loading') return const [];
      _phase = 'unavailable';
      return [ChiaRenderAction(screen)];
    }
    if (event is ChiaShareTapEvent) return _share(event.at, event.freshKey);
    if (event is ChiaContinueTapEvent) return _continueWithoutSharing();
    if (event is ChiaShareSucceededEvent) {
      if (_phase != 'sharing') return const [];
      _phase = 'opened';
      _pending = null;
      return [const ChiaDiscardPendingAttemptAction(), ChiaRenderAction(screen), ChiaOpenExternalBrowserAction(event.url)];
    }
    if (event is ChiaShareFailedEvent) {
      return _phase == 'sharing' ? _shareFailed(RetryDecision.classify(event.outcome, event.at), event.at) : const [];
    }
    if (event is ChiaBrowserFailedEvent) return _phase == 'opened' ? _refresh() : const [];
    if (event is ChiaReturnLinkEvent) {
      final parser = genericReturn;
      return parser != null && parser.parse(event.url).accepted ? const [ChiaRouteToMarketplaceHomeAction()] : const [];
    }
    if (event is ChiaBackgroundEvent) return const [];
    if (event is ChiaForegroundEvent) {
      return const ['card', 'loading', 'sharing'].contains(_phase) ? const [] : _refresh();
    }
    if (event is ChiaRestoredEvent) {
      final attempt = event.attempt;
      if (attempt != null && attempt.catalogItemId == catalogItemId && _pending == null) _pending = attempt;
      return _refresh();
    }
    if (event is ChiaTickEvent) return _tick(event.at);
    return const [];
  }

  List<ChiaAction> _refresh() {
    _phase = 'loading';
    _retryNotBefore = null;
    _retryJoined = false;
    _signInRequired = false;
    return [ChiaRenderAction(screen), const ChiaFetchProjectionAction()];
  }

  List<ChiaAction> _present(CatalogCard? fresh) {
    if (fresh == null || fresh.id != catalogItemId) {
      _phase = 'hidden';
      return [..._discardPending(), ChiaRenderAction(screen)];
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
    actions.add(ChiaRenderAction(screen));
    return actions;
  }

  List<ChiaAction> _discardPending() {
    if (_pending == null) return const [];
    _pending = null;
    return const [ChiaDiscardPendingAttemptAction()];
  }

  List<ChiaAction> _share(DateTime at, String freshKey) {
    final card = _card;
    if (_phase != 'presenting' || card == null || !card.handoff.isShare) return const [];
    if (_retryNotBefore != null && _pending != null) {
      // During a Retry-After wait the tap joins the pending retry: no new key, nothing sent before the wait ends.
      if (_retryJoined) return const [];
      _retryJoined = true;
      return [ChiaRenderAction(screen)];
    }
    _phase = 'sharing';
    _signInRequired = false;
    final actions = <ChiaAction>[ChiaRenderAction(screen)];
    var attempt = _pending;
    if (attempt == null) {
      attempt = PendingAttempt(freshKey, card.id, card.handoff.disclosureVersion, rfc3339(at));
      _pending = attempt;
      actions.add(ChiaSavePendingAttemptAction(attempt));
    }
    actions.add(ChiaSendShareRequestAction(attempt));
    return actions;
  }

  List<ChiaAction> _continueWithoutSharing() {
    final card = _card;
    if (_phase != 'presenting' || card == null) return const [];
    _phase = 'opened';
    _retryNotBefore = null;
    _retryJoined = false;
    return [ChiaRenderAction(screen), ChiaOpenExternalBrowserAction(SensitiveUrl(card.handoff.neutralUrl))];
  }

  List<ChiaAction> _shareFailed(RetryDecision decision, DateTime at) {
    switch (decision.decision) {
      case 'sign_in_and_retry':
        // The first attempt may have reached Chia: keep body and key for the retry after signing in.
        _phase = 'presenting';
        _signInRequired = true;
        return [const ChiaRequestSignInAction(), ChiaRenderAction(screen)];
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
          actions.add(ChiaScheduleTickAction(notBefore));
        }
        actions.add(ChiaRenderAction(screen));
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
      return [ChiaRenderAction(screen), ChiaSendShareRequestAction(attempt)];
    }
    return [ChiaRenderAction(screen)];
  }
}
