// The bodies of the partner backend's app-facing API (docs/CONTRACTS.md §2), decoded as BatonClient's
// BackendResponseDecoding decodes them (Sources/BatonCore/API). Decoders throw FormatException; the backend client
// turns it into BackendError.malformedResponse.
import 'sensitive_url.dart';
import 'url_policy.dart';

/// The callback kind a device's authentication session catches, as sent to `POST /v2/connect-sessions`.
enum ConnectCallbackKind {
  /// A universal link / app link (`"https"`).
  https('https'),

  /// A custom URL scheme (`"custom-scheme"`).
  customScheme('custom-scheme');

  const ConnectCallbackKind(this.wire);

  /// The JSON string.
  final String wire;

  static ConnectCallbackKind? fromWire(Object? value) {
    for (final kind in values) {
      if (kind.wire == value) return kind;
    }
    return null;
  }
}

/// `201` of `POST /v2/handoff-sessions`: the short-lived Chia journey URL. Opened once, never stored.
class HandoffSession {
  const HandoffSession(this.url, this.expiresAt);

  final SensitiveUrl url;

  /// When the URL stops working; null when absent or unreadable.
  final DateTime? expiresAt;

  static HandoffSession decode(Object? json, UrlPolicy urls) {
    final object = jsonObject(json);
    final expires = object['expiresAt'];
    if (expires != null && expires is! String) throw const FormatException();
    return HandoffSession(journeyUrl(object['url'], urls), expires is String ? parseRfc3339(expires) : null);
  }
}

/// `200` of `POST /v2/verification-handoffs`: a single-use Privue journey URL, fragment included.
class VerificationHandoff {
  const VerificationHandoff(this.url, this.expiresInSeconds);

  final SensitiveUrl url;
  final int? expiresInSeconds;

  static VerificationHandoff decode(Object? json, UrlPolicy urls) {
    final object = jsonObject(json);
    final seconds = object['expiresInSeconds'];
    if (seconds != null && seconds is! int) throw const FormatException();
    return VerificationHandoff(journeyUrl(object['url'], urls), seconds as int?);
  }
}

/// `GET /v2/verifications/{workflow}`: the authoritative verification state; [status] kept as the backend's string.
class VerificationState {
  const VerificationState(this.verificationId, this.status);

  final String verificationId;
  final String status;

  static VerificationState decode(Object? json) {
    final object = jsonObject(json);
    return VerificationState(jsonString(object['verificationId']), jsonString(object['status']));
  }
}

/// `201` of `POST /v2/connect-sessions`: the BB session the backend created for this device's callback.
class ConnectSession {
  const ConnectSession(this.sessionId, this.hostedUrl, this.callbackKind, {this.httpsHost, this.httpsPath, this.scheme});

  /// BB's session id (opaque).
  final String sessionId;

  /// The hosted connect URL, opened once in an authentication session.
  final SensitiveUrl hostedUrl;

  /// The callback kind the backend registered the session's `returnUrl` for.
  final ConnectCallbackKind callbackKind;
  final String? httpsHost;
  final String? httpsPath;
  final String? scheme;

  /// Reads the body; a bare kind string in place of the callback object is accepted (as Swift does).
  static ConnectSession decode(Object? json, UrlPolicy urls) {
    final object = jsonObject(json);
    final id = jsonString(object['sessionId']);
    if (id.isEmpty) throw const FormatException();
    final hosted = journeyUrl(object['hostedUrl'], urls);
    final callback = object['callback'];
    final bare = ConnectCallbackKind.fromWire(callback);
    if (bare != null) return ConnectSession(id, hosted, bare);
    final described = jsonObject(callback);
    final kind = ConnectCallbackKind.fromWire(described['kind']);
    if (kind == null) throw const FormatException();
    return ConnectSession(id, hosted, kind,
        httpsHost: optionalString(described['host']),
        httpsPath: optionalString(described['path']),
        scheme: optionalString(described['scheme']));
  }
}

/// A BB session's status (`GET /v2/connect-sessions/{sessionId}`).
enum ConnectSessionStatus { pending, ok, error, cancelled, expired }

/// `GET /v2/connect-sessions/{sessionId}`: the authoritative BB session state.
class ConnectSessionState {
  const ConnectSessionState(this.sessionId, this.status, {this.connectionId, this.error});

  final String sessionId;
  final ConnectSessionStatus status;
  final String? connectionId;
  final String? error;

  static ConnectSessionState decode(Object? json) {
    final object = jsonObject(json);
    final statusText = jsonString(object['status']);
    final status = ConnectSessionStatus.values.where((s) => s.name == statusText);
    if (status.isEmpty) throw const FormatException();
    return ConnectSessionState(jsonString(object['sessionId']), status.first,
        connectionId: optionalString(object['connectionId']), error: optionalString(object['error']));
  }
}

/// [value] as a JSON object, or FormatException.
Map<String, Object?> jsonObject(Object? value) {
  if (value is Map<String, Object?>) return value;
  throw const FormatException();
}

/// [value] as a JSON string, or FormatException.
String jsonString(Object? value) {
  if (value is String) return value;
  throw const FormatException();
}

/// [value] as an optional JSON string (absent or null is null), or FormatException.
String? optionalString(Object? value) {
  if (value == null || value is String) return value as String?;
  throw const FormatException();
}

/// [value] as a journey URL under [urls] (https; loopback http only under development), or FormatException.
SensitiveUrl journeyUrl(Object? value, UrlPolicy urls) {
  final url = SensitiveUrl.parse(jsonString(value), urls);
  if (url == null) throw const FormatException();
  return url;
}

final RegExp _rfc3339 =
    RegExp(r'^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$');

/// An RFC 3339 timestamp, or null when it is not one.
DateTime? parseRfc3339(String text) {
  if (!_rfc3339.hasMatch(text)) return null;
  return DateTime.tryParse(text);
}
