// The development URL policy (docs/CONTRACTS.md §2 "local development"), transcribed from BatonCore's URLPolicy.
import 'raw_url.dart';

/// Where the contracts require `https`, whether plain `http` to this machine is accepted too.
///
/// [production] (the default everywhere) accepts only `https`. [development] also accepts `http` whose host is a
/// loopback address (`127.0.0.0/8`, `[::1]`, `localhost`): the local `baton serve --sandbox` serves its journeys
/// that way. The app opts in explicitly, and a release build refuses it (see `BatonConfiguration`).
class UrlPolicy {
  const UrlPolicy._(this.allowsLoopbackHttp);

  /// Only `https`.
  static const UrlPolicy production = UrlPolicy._(false);

  /// `https`, and plain `http` to a loopback host (the local sandbox).
  static const UrlPolicy development = UrlPolicy._(true);

  /// Whether loopback `http` passes where `https` is required.
  final bool allowsLoopbackHttp;

  /// Whether a URL with this scheme and host passes where `https` is required (both compared ASCII-lowercased).
  bool acceptsAsSecure(String scheme, String host) {
    final s = asciiLowercase(scheme);
    return s == 'https' || (s == 'http' && allowsLoopbackHttp && isLoopback(asciiLowercase(host)));
  }

  /// Whether [text] is an absolute URL with a host, no userinfo, and a scheme this policy accepts as secure.
  bool acceptsUrl(String text) {
    final url = RawUrl.parse(text);
    return url != null && url.host.isNotEmpty && url.userinfo == null && acceptsAsSecure(url.scheme, url.host);
  }

  /// Whether [host] (lowercased, IPv6 in brackets) names this machine; dotted-quad octets are ASCII digits only.
  static bool isLoopback(String host) {
    if (host == 'localhost' || host == '[::1]') return true;
    final parts = host.split('.');
    if (parts.length != 4) return false;
    for (final part in parts) {
      if (part.isEmpty || part.length > 3) return false;
      for (final unit in part.codeUnits) {
        if (unit < 0x30 || unit > 0x39) return false;
      }
      if (int.parse(part) > 255) return false;
    }
    return int.parse(parts.first) == 127;
  }

  @override
  String toString() => allowsLoopbackHttp ? 'development' : 'production';
}
