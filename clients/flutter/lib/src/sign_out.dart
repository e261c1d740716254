// signOut: keeps two users apart on one device (docs/CONTRACTS.md §1.3; the React Native package's signOut).
import 'camera_journey_view.dart';
import 'configuration.dart';
import 'stores.dart';

/// Forgets what the SDK kept for `configuration.userId` — the pending share attempt and BB session under that user's
/// keys — and, unless [eraseWebData] is false, the camera web view's cookies and site storage, so the next user can
/// neither resume this one's share or bank session nor open Privue signed in as them. Stop the user's controllers
/// first. The web data is erased even when the storage fails; the storage's error is thrown after. Another user's
/// keys are never touched. A failure to erase the web data reaches [onFailure] (`storage_failed`).
Future<void> signOut(BatonConfiguration configuration,
    {bool eraseWebData = true, void Function(BatonFlowFailure failure)? onFailure}) async {
  final keys = configuration.keys;
  Object? failure;
  for (final key in [keys.chiaPendingAttempt, keys.bbPendingSession]) {
    try {
      await configuration.storage.removeItem(key);
    } catch (error) {
      failure ??= error;
    }
  }
  if (eraseWebData) {
    try {
      await eraseJourneyWebData();
    } catch (_) {
      onFailure?.call(const BatonFlowFailure('privue', 'storage_failed'));
    }
  }
  if (failure != null) throw failure;
}
