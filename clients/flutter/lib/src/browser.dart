// How a presented journey ends (BatonClient's BrowserCompletion), and the three browser seams, one per provider:
// the OS external browser (Chia), an authentication session (BB), the camera web view (Privue). A flow's controller
// takes only its own seam, so BB cannot be handed to the system browser app by mistake.
import 'connect_callback.dart';
import 'journey_web_policy.dart';
import 'sensitive_url.dart';

/// How a presentation ended, as far as the app can see.
enum BrowserCompletionKind {
  /// The URL went to the OS browser, which owns the journey now (external browser only).
  handedToSystem,

  /// The URL could not be opened (nothing was shown).
  failedToOpen,

  /// The browser caught a return link ([BrowserCompletion.link], raw, for the flow's strict parser).
  returned,

  /// The user closed the browser without a return.
  closedWithoutReturn,

  /// The browser ended with an error that is not the user's close.
  failed,

  /// The flow dismissed the browser itself (the outcome is being asked already); nothing more is reported.
  cancelled,
}

/// One presentation's end. Exactly one reaches the flow.
class BrowserCompletion {
  const BrowserCompletion._(this.kind, this.link);

  /// A return link, exactly as delivered.
  const BrowserCompletion.returned(String this.link) : kind = BrowserCompletionKind.returned;

  static const handedToSystem = BrowserCompletion._(BrowserCompletionKind.handedToSystem, null);
  static const failedToOpen = BrowserCompletion._(BrowserCompletionKind.failedToOpen, null);
  static const closedWithoutReturn = BrowserCompletion._(BrowserCompletionKind.closedWithoutReturn, null);
  static const failed = BrowserCompletion._(BrowserCompletionKind.failed, null);
  static const cancelled = BrowserCompletion._(BrowserCompletionKind.cancelled, null);

  final BrowserCompletionKind kind;
  final String? link;

  @override
  String toString() => 'BrowserCompletion.${kind.name}';
}

/// Opens a Chia journey URL in the OS external browser (never a web view or a tab the app controls).
abstract class ExternalBrowserPresenter {
  /// [BrowserCompletion.handedToSystem] once the OS took the URL, [BrowserCompletion.failedToOpen] otherwise.
  Future<BrowserCompletion> present(SensitiveUrl url);
}

/// Opens BB's hosted URL in an authentication session (`ASWebAuthenticationSession` on iOS, an Auth Tab or Custom
/// Tab on Android) catching [ConnectCallback]; never an embedded web view, never the system browser app.
abstract class AuthSessionPresenter {
  Future<BrowserCompletion> present(SensitiveUrl url, ConnectCallback callback);
}

/// Opens Privue's handoff in the camera web view governed by a [JourneyWebPolicy]; one instance for the whole visit.
abstract class CameraJourneyPresenter {
  Future<BrowserCompletion> present(SensitiveUrl url, JourneyWebPolicy policy);

  /// Closes the web view (the flow already asks the backend); the pending [present] completes with
  /// [BrowserCompletion.cancelled].
  void dismiss();
}
