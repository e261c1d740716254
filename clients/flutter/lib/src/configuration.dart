// BatonConfiguration: the one value the three flows are built from (the React Native package's BatonConfiguration,
// BatonReturnUrls and signOut; Kotlin's BatonConfiguration; Swift's initialisers + URLPolicy).
import 'package:http/http.dart' as http;

import 'backend_client.dart';
import 'polling.dart';
import 'return_links.dart';
import 'stores.dart';
import 'url_policy.dart';

/// BB's registered returns: the universal/app link and the custom-scheme fallback (BB *Mobile apps*), plus the
/// landing page's open-host link, registered with the app's parser so its bare "Return to the app" link counts.
class BbReturnUrls {
  const BbReturnUrls({required this.https, required this.customScheme, this.landing = const []});

  /// For example `https://app.example.com/bb-callback`.
  final String https;

  /// For example `acmewallet://bb-callback`.
  final String customScheme;

  /// For example `https://open.app.example.com/bb-callback`.
  final List<String> landing;

  /// Every URL the connect parser recognises.
  List<String> get all => [https, customScheme, ...landing];
}

/// The return URLs registered with each provider (docs/CONTRACTS.md §1).
class BatonReturnUrls {
  const BatonReturnUrls({this.chiaGenericReturnHost, this.privue = const [], this.bb});

  /// Chia's generic return host (for example `partner.example`), only if approved and registered.
  final String? chiaGenericReturnHost;

  /// Privue's registered https return URLs, the landing page's open-host link included.
  final List<String> privue;
  final BbReturnUrls? bb;
}

/// The backend, the app token, where flow state is kept, the return URLs the app registered, and the URL policy.
class BatonConfiguration {
  /// Throws [BatonConfigurationError] for a backend URL [urlPolicy] refuses, or for [UrlPolicy.development] in a
  /// release build; throws [ReturnUrlRegistrationError] for a return URL that cannot be registered.
  BatonConfiguration({
    required this.backendUrl,
    required this.tokenProvider,
    required this.userId,
    BatonStorage? storage,
    this.returnUrls = const BatonReturnUrls(),
    this.urlPolicy = UrlPolicy.production,
    this.polling = const PollingPolicy(),
    this.requestTimeout = const Duration(seconds: 30),
  }) : storage = storage ?? MemoryBatonStorage() {
    if (urlPolicy.allowsLoopbackHttp && const bool.fromEnvironment('dart.vm.product')) {
      throw const BatonConfigurationError('development_policy_in_release');
    }
    HttpBackendClient.checkBaseUrl(backendUrl, urlPolicy);
    final bb = returnUrls.bb;
    if (bb != null) ConnectReturnParser(bb.all);
    if (returnUrls.privue.isNotEmpty) VerificationReturnParser(returnUrls.privue);
    final host = returnUrls.chiaGenericReturnHost;
    if (host != null) GenericReturnParser(host);
  }

  /// The partner backend's origin, for example `https://partner.example` (`http://127.0.0.1:P` against
  /// `baton serve --sandbox`, with [UrlPolicy.development]).
  final String backendUrl;

  /// The app's current token for `Authorization: Bearer`; null when signed out (nothing is sent).
  final Future<String?> Function() tokenProvider;

  /// The signed-in user's stable id (for example the app token's `sub`): what the flows keep in [storage] is kept
  /// under this user's own keys ([storageKeys]), so a restore never reads another user's share attempt or BB session
  /// (docs/CONTRACTS.md §1.3). Build a new configuration when another user signs in.
  final String userId;

  /// This user's storage keys.
  BatonStorageKeys get keys => storageKeys(userId);

  /// Where the Chia share's key and body and BB's pending session id are kept across restarts (never a URL).
  /// The default keeps them in memory only.
  final BatonStorage storage;
  final BatonReturnUrls returnUrls;

  /// [UrlPolicy.production] unless the app opts in to the local sandbox.
  final UrlPolicy urlPolicy;
  final PollingPolicy polling;
  final Duration requestTimeout;

  /// The default backend client over package:http.
  BackendClient backendClient({http.Client? client}) => HttpBackendClient(
      baseUrl: backendUrl, tokenProvider: tokenProvider, client: client, timeout: requestTimeout, urls: urlPolicy);
}
