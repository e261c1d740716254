// A transcription of clients/react-native/src/core/returnLinks.ts (docs/CONTRACTS.md §1): the three return-link
// parsers, judged on the URL exactly as delivered (never Dart's normalising Uri.parse).
import 'form_query.dart';
import 'raw_url.dart';

/// A parser's answer: accepted with a value, or rejected with a machine reason (never part of the URL).
class ReturnLinkResult<T> {
  const ReturnLinkResult.accepted(T this.value) : reason = null;
  const ReturnLinkResult.rejected(String this.reason) : value = null;

  final T? value;

  /// unparseable_url, userinfo_present, not_https, unregistered_url, unregistered_host, unregistered_port,
  /// missing_session_id, missing_result_code, invalid_result_code or missing_verification_id.
  final String? reason;

  bool get accepted => reason == null;
}

/// A return URL that cannot be registered (a configuration error): [code] says why.
class ReturnUrlRegistrationError implements Exception {
  const ReturnUrlRegistrationError(this.code);

  /// unparseable_url, userinfo_present, fragment_present, none_registered or not_https.
  final String code;

  @override
  String toString() => 'return URL cannot be registered: $code';
}

/// A return URL registered with a provider: scheme and host ASCII case-insensitive, effective port, exact path.
class RegisteredReturnUrl {
  factory RegisteredReturnUrl(String text) {
    final url = RawUrl.parse(text);
    if (url == null) throw const ReturnUrlRegistrationError('unparseable_url');
    if (url.userinfo != null) throw const ReturnUrlRegistrationError('userinfo_present');
    if (url.fragment != null) throw const ReturnUrlRegistrationError('fragment_present');
    return RegisteredReturnUrl._(
        text, asciiLowercase(url.scheme), asciiLowercase(url.host), url.effectivePort, url.effectivePath);
  }

  RegisteredReturnUrl._(this.text, this._scheme, this._host, this._port, this._path);

  final String text;
  final String _scheme;
  final String _host;
  final int? _port;
  final String _path;

  bool get isHttps => _scheme == 'https';

  /// The registered host, lowercased (the `httpsHost` an authentication session catches).
  String get host => _host;

  /// The registered path (the `httpsPath` an authentication session catches).
  String get path => _path;

  /// The registered scheme, lowercased.
  String get scheme => _scheme;

  /// Whether [candidate] is this registered URL (queries are not compared; userinfo never matches).
  bool matches(RawUrl candidate) =>
      candidate.userinfo == null &&
      asciiLowercase(candidate.scheme) == _scheme &&
      candidate.effectivePort == _port &&
      asciiLowercase(candidate.host) == _host &&
      candidate.effectivePath == _path;
}

bool _isBare(String text, List<RegisteredReturnUrl> registered) {
  final url = RawUrl.parse(text);
  return url != null &&
      url.userinfo == null &&
      (url.query ?? '').isEmpty &&
      registered.any((r) => r.matches(url));
}

List<RegisteredReturnUrl> _register(List<String> texts) {
  if (texts.isEmpty) throw const ReturnUrlRegistrationError('none_registered');
  return texts.map(RegisteredReturnUrl.new).toList(growable: false);
}

/// A BB connect return: a UX signal only, never the outcome.
class ConnectReturn {
  const ConnectReturn(this.sessionId, this.resultCode, this.connectionId, this.error);

  final String sessionId;

  /// `Ok`, `Error` or `Cancelled`, exactly.
  final String resultCode;
  final String? connectionId;
  final String? error;
}

/// BB connect return parser: registered URL, then `sessionId`, then `resultCode` (first occurrence wins).
class ConnectReturnParser {
  ConnectReturnParser(List<String> registered) : registered = _register(registered);

  final List<RegisteredReturnUrl> registered;

  /// Whether [text] is a registered return URL with no query at all (the landing page's bare link back).
  bool isBareReturn(String text) => _isBare(text, registered);

  ReturnLinkResult<ConnectReturn> parse(String text) {
    final url = RawUrl.parse(text);
    if (url == null) return const ReturnLinkResult.rejected('unparseable_url');
    if (url.userinfo != null) return const ReturnLinkResult.rejected('userinfo_present');
    if (!registered.any((r) => r.matches(url))) return const ReturnLinkResult.rejected('unregistered_url');
    final query = url.query ?? '';
    final sessionId = firstNonEmptyField('sessionId', query);
    if (sessionId == null) return const ReturnLinkResult.rejected('missing_session_id');
    final resultCode = firstField('resultCode', query);
    if (resultCode == null) return const ReturnLinkResult.rejected('missing_result_code');
    if (resultCode != 'Ok' && resultCode != 'Error' && resultCode != 'Cancelled') {
      return const ReturnLinkResult.rejected('invalid_result_code');
    }
    return ReturnLinkResult.accepted(ConnectReturn(
        sessionId, resultCode, firstNonEmptyField('connectionId', query), firstNonEmptyField('error', query)));
  }
}

/// A Privue verification return; [statusHint] is a landing hint only.
class VerificationReturn {
  const VerificationReturn(this.verificationId, this.statusHint);

  final String verificationId;
  final String? statusHint;
}

/// Privue verification return parser: https, registered URL, then `verification_id`.
class VerificationReturnParser {
  VerificationReturnParser(List<String> registered) : registered = _register(registered) {
    if (!this.registered.every((r) => r.isHttps)) throw const ReturnUrlRegistrationError('not_https');
  }

  final List<RegisteredReturnUrl> registered;

  /// Whether [text] is a registered return URL with no query at all (the landing page's bare link back).
  bool isBareReturn(String text) => _isBare(text, registered);

  ReturnLinkResult<VerificationReturn> parse(String text) {
    final url = RawUrl.parse(text);
    if (url == null) return const ReturnLinkResult.rejected('unparseable_url');
    if (asciiLowercase(url.scheme) != 'https') return const ReturnLinkResult.rejected('not_https');
    if (url.userinfo != null) return const ReturnLinkResult.rejected('userinfo_present');
    if (!registered.any((r) => r.matches(url))) return const ReturnLinkResult.rejected('unregistered_url');
    final query = url.query ?? '';
    final verificationId = firstNonEmptyField('verification_id', query);
    if (verificationId == null) return const ReturnLinkResult.rejected('missing_verification_id');
    return ReturnLinkResult.accepted(VerificationReturn(verificationId, firstNonEmptyField('status', query)));
  }
}

/// The only route a generic return leads to.
const String marketplaceHome = 'marketplace-home';

/// Chia's generic return: https, the registered host, the default port; path, query and fragment are ignored
/// entirely, and the route is always marketplace home.
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
      throw const ReturnUrlRegistrationError('unparseable_url');
    }
    return asciiLowercase(url.host);
  }

  ReturnLinkResult<String> parse(String text) {
    final url = RawUrl.parse(text);
    if (url == null) return const ReturnLinkResult.rejected('unparseable_url');
    if (asciiLowercase(url.scheme) != 'https') return const ReturnLinkResult.rejected('not_https');
    if (url.userinfo != null) return const ReturnLinkResult.rejected('userinfo_present');
    if (asciiLowercase(url.host) != registeredHost) return const ReturnLinkResult.rejected('unregistered_host');
    if (url.effectivePort != 443) return const ReturnLinkResult.rejected('unregistered_port');
    return const ReturnLinkResult.accepted(marketplaceHome);
  }
}
