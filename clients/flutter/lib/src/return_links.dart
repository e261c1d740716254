// A transcription of clients/react-native/src/core/returnLinks.ts (docs/CONTRACTS.md §1). Only the generic-return
// parser is used by the Flutter shell (Chia); BB and Privue returns go through the Kotlin/Swift shells' rules.
import 'raw_url.dart';

/// A parser's answer: accepted with a route, or rejected with a machine reason (never part of the URL).
class ReturnLinkResult {
  const ReturnLinkResult.accepted(this.route) : reason = null;
  const ReturnLinkResult.rejected(this.reason) : route = null;

  final String? route;
  final String? reason;

  bool get accepted => route != null;
}

/// The only route a generic return leads to.
const String marketplaceHome = 'marketplace-home';

/// Chia's generic return (seed 000): https, the registered host, the default port; path, query and fragment are
/// ignored entirely, and the route is always marketplace home.
class GenericReturnParser {
  GenericReturnParser(String registeredHost) : registeredHost = _normalizedHost(registeredHost);

  final String registeredHost;

  static String _normalizedHost(String registeredHost) {
    final url = RawUrl.parse('https://$registeredHost');
    if (url == null ||
        url.userinfo != null ||
        url.port != null ||
        url.host.isEmpty ||
        url.path.isNotEmpty ||
        url.query != null ||
        url.fragment != null) {
      throw ArgumentError('return URL cannot be registered: unparseable_url');
    }
    return asciiLowercase(url.host);
  }

  ReturnLinkResult parse(String text) {
    final url = RawUrl.parse(text);
    if (url == null) return const ReturnLinkResult.rejected('unparseable_url');
    if (asciiLowercase(url.scheme) != 'https') return const ReturnLinkResult.rejected('not_https');
    if (url.userinfo != null) return const ReturnLinkResult.rejected('userinfo_present');
    if (asciiLowercase(url.host) != registeredHost) return const ReturnLinkResult.rejected('unregistered_host');
    if (url.effectivePort != 443) return const ReturnLinkResult.rejected('unregistered_port');
    return const ReturnLinkResult.accepted(marketplaceHome);
  }
}
