// signOut: keeps two users apart on one device (docs/CONTRACTS.md §1.3; the React Native package's signOut).
import 'camera_journey_view.dart';
import 'configuration.dart';
import 'stores.dart';

/// Forgets everything the SDK kept for the signed-in user — the pending share attempt and BB session in the
/// configuration's storage and, unless [eraseWebData] is false, the camera web view's cookies and site storage — so
/// the next user starts clean. Call it when the user signs out, before another signs in; stop that user's
/// controllers too. Reports a failure to erase the web data through [onFailure] (`storage_failed`).
Future<void> signOut(BatonConfiguration configuration,
    {bool eraseWebData = true, void Function(BatonFlowFailure failure)? onFailure}) async {
  await configuration.storage.removeItem(BatonStorageKeys.chiaPendingAttempt);
  await configuration.storage.removeItem(BatonStorageKeys.bbPendingSession);
  if (!eraseWebData) return;
  try {
    await eraseJourneyWebData();
  } catch (_) {
    onFailure?.call(const BatonFlowFailure('privue', 'storage_failed'));
  }
}
