// BatonConfiguration: the one value the three flows are built from (docs/MOBILE-SDK concept "configuration value").
import 'package:http/http.dart' as http;

import 'backend_client.dart';
import 'polling.dart';
import 'return_links.dart';
import 'stores.dart';
import 'url_policy.dart';

/// A configuration the SDK refuses, with a machine [code]; never contains a URL or a token.
class BatonConfigurationError implements Exception {
  const BatonConfigurationError(this.code);

  /// `backend_url_refused` or `development_policy_in_release`.
  final String code;

  @override
  String toString() => 'Baton configuration refused: $code';
}

/// The backend, the app token, the return URLs the app registered, where flow state is kept, and the URL policy.
class BatonConfiguration {
  /// Throws [BatonConfigurationError] for a backend URL [urlPolicy] refuses, or for [UrlPolicy.development] in a
  /// release build; throws [ReturnUrlRegistrationError] for a return URL that cannot be registered.
  BatonConfiguration({
    required this.backendBaseUrl,
    required this.tokenProvider,
    this.connectReturnUrls = const [],
    this.verificationReturnUrls = const [],
    this.genericReturnHost,
    PendingAttemptStore? attemptStore,
    PendingSessionStore? sessionStore,
    this.urlPolicy = UrlPolicy.production,
    this.polling = const PollingPolicy(),
    this.requestTimeout = const Duration(seconds: 30),
  })  : attemptStore = attemptStore ?? MemoryPendingAttemptStore(),
        sessionStore = sessionStore ?? MemoryPendingSessionStore() {
    if (urlPolicy.allowsLoopbackHttp && const bool.fromEnvironment('dart.vm.product')) {
      throw const BatonConfigurationError('development_policy_in_release');
    }
    if (!urlPolicy.acceptsUrl(backendBaseUrl)) throw const BatonConfigurationError('backend_url_refused');
    for (final url in [...connectReturnUrls, ...verificationReturnUrls]) {
      RegisteredReturnUrl(url);
    }
    if (verificationReturnUrls.isNotEmpty) VerificationReturnParser(verificationReturnUrls);
    if (genericReturnHost != null) GenericReturnParser(genericReturnHost!);
  }

  /// The partner backend's origin, for example `https://partner.example` (`http://127.0.0.1:P` against
  /// `baton serve --sandbox`, with [UrlPolicy.development]).
  final String backendBaseUrl;

  /// The app's current token for `Authorization: Bearer`; null when signed out (nothing is sent).
  final Future<String?> Function() tokenProvider;

  /// BB return URLs registered in BB's portal: the https universal/app link, the custom-scheme fallback, and the
  /// landing page's open-host link (so its bare link counts).
  final List<String> connectReturnUrls;

  /// Privue return URLs (https only), including the landing page's open-host link.
  final List<String> verificationReturnUrls;

  /// Chia's generic return host, when approved and registered.
  final String? genericReturnHost;

  /// Where the Chia share's key and body are kept across restarts (never a URL).
  final PendingAttemptStore attemptStore;

  /// Where BB's pending session id is kept across restarts (never the hosted URL).
  final PendingSessionStore sessionStore;

  /// [UrlPolicy.production] unless the app opts in to the local sandbox.
  final UrlPolicy urlPolicy;
  final PollingPolicy polling;
  final Duration requestTimeout;

  /// The default backend client over package:http.
  BackendClient backendClient({http.Client? client}) => HttpBackendClient(
      baseUrl: backendBaseUrl, tokenProvider: tokenProvider, client: client, timeout: requestTimeout, urls: urlPolicy);
}
