/// Baton for Flutter: the Chia catalog handoff (OS external browser), Privue verification (camera web view) and BB
/// bank connect (authentication session), each a controller over a pure flow machine and the partner backend's
/// `/v2` API. The one import:
///
/// ```dart
/// import 'package:baton/baton.dart';
/// ```
///
/// Reviewed source: no machine that builds Baton has a Dart or Flutter SDK, so none of this has been compiled or
/// run there (docs/flutter.md says what that leaves unproven).
library baton;

export 'catalog_card_view.dart';
export 'handoff.dart';
export 'src/api_types.dart'
    show
        ConnectCallbackKind,
        ConnectSession,
        ConnectSessionState,
        ConnectSessionStatus,
        HandoffSession,
        VerificationHandoff,
        VerificationState;
export 'src/auth_session_presenter.dart';
export 'src/backend_client.dart';
export 'src/backend_error.dart';
export 'src/bank_connect_controller.dart';
export 'src/browser.dart';
export 'src/camera_journey_view.dart';
export 'src/catalog_card.dart';
export 'src/chia_handoff_controller.dart';
export 'src/chia_machine.dart';
export 'src/configuration.dart';
export 'src/connect_callback.dart';
export 'src/connect_machine.dart';
export 'src/external_browser_presenter.dart';
export 'src/journey_web_policy.dart';
export 'src/link_router.dart';
export 'src/polling.dart';
export 'src/retry.dart';
export 'src/sign_out.dart';
export 'src/return_links.dart';
export 'src/sensitive_url.dart';
export 'src/stores.dart';
export 'src/url_policy.dart';
export 'src/uuid.dart';
export 'src/verification_controller.dart';
export 'src/verification_machine.dart';
