// The partner backend's app-facing API (docs/CONTRACTS.md §2), as BatonClient's BackendClient protocol and
// URLSessionBackendClient define it: an abstract class, and a default over package:http.
import 'dart:async';
import 'dart:convert';
import 'dart:io' show TlsException;

import 'package:http/http.dart' as http;

import 'api_types.dart';
import 'backend_error.dart';
import 'catalog_card.dart';
import 'retry.dart';
import 'url_policy.dart';

/// A configuration the SDK refuses, with a machine [code]; never contains a URL or a token.
class BatonConfigurationError implements Exception {
  const BatonConfigurationError(this.code);

  /// `backend_url_not_https`, `backend_url_not_https_or_loopback` or `development_policy_in_release`.
  final String code;

  @override
  String toString() => 'Baton configuration refused: $code';
}

/// The six `/v2/*` routes the flows use. Every method throws only [BackendError].
abstract class BackendClient {
  /// `GET /v2/catalog`: the user's catalog cards (hidden items are absent; a card that does not decode strictly is
  /// dropped).
  Future<List<CatalogCard>> catalog();

  /// `POST /v2/handoff-sessions` with `Idempotency-Key: attempt.key` and exactly `attempt.bodyJson()`.
  Future<HandoffSession> createHandoffSession(PendingAttempt attempt);

  /// `POST /v2/verification-handoffs` `{"workflow": …}`: a fresh single-use handoff, created now.
  Future<VerificationHandoff> createVerificationHandoff(String workflow);

  /// `GET /v2/verifications/{workflow}`: the authoritative verification state.
  Future<VerificationState> verification(String workflow);

  /// `POST /v2/connect-sessions` `{"callback": "https" | "custom-scheme"}`.
  Future<ConnectSession> createConnectSession(ConnectCallbackKind callback);

  /// `GET /v2/connect-sessions/{sessionId}`: the authoritative session state.
  Future<ConnectSessionState> connectSession(String sessionId);
}

/// The default [BackendClient]: the `/v2` routes over package:http.
///
/// Every request carries `Authorization: Bearer <token>` from [tokenProvider] (no token: [BackendError] not
/// authenticated, nothing sent); the share carries `Idempotency-Key`. A non-2xx answer becomes [BackendError] with the
/// status, the problem+json `code` and `Retry-After`; nothing in an error contains the request, the token or a URL.
/// Journey URLs in answers are accepted under [urls] ([UrlPolicy.development] only against the local sandbox).
class HttpBackendClient implements BackendClient {
  /// A client for [baseUrl] (the partner backend's origin, https; loopback http only under [UrlPolicy.development]).
  /// Throws [BatonConfigurationError] for a base URL the policy refuses.
  HttpBackendClient({
    required String baseUrl,
    required this.tokenProvider,
    http.Client? client,
    this.timeout = const Duration(seconds: 30),
    this.urls = UrlPolicy.production,
  })  : _base = checkBaseUrl(baseUrl, urls),
        _client = client ?? http.Client();

  final String _base;
  final Future<String?> Function() tokenProvider;
  final http.Client _client;
  final Duration timeout;
  final UrlPolicy urls;

  /// [baseUrl] without trailing slashes, or [BatonConfigurationError] when [urls] refuses it.
  static String checkBaseUrl(String baseUrl, UrlPolicy urls) {
    if (!urls.acceptsUrl(baseUrl)) {
      throw BatonConfigurationError(
          urls.allowsLoopbackHttp ? 'backend_url_not_https_or_loopback' : 'backend_url_not_https');
    }
    var text = baseUrl;
    while (text.endsWith('/')) {
      text = text.substring(0, text.length - 1);
    }
    return text;
  }

  /// Closes the underlying HTTP client.
  void close() => _client.close();

  @override
  Future<List<CatalogCard>> catalog() async {
    final body = await _send('GET', const ['v2', 'catalog']);
    return _decode(body, (json) {
      final items = jsonObject(json)['items'];
      if (items is! List) throw const FormatException();
      return items.map((item) => CatalogCard.decode(item, urls)).whereType<CatalogCard>().toList();
    });
  }

  @override
  Future<HandoffSession> createHandoffSession(PendingAttempt attempt) async {
    final body = await _send('POST', const ['v2', 'handoff-sessions'],
        body: attempt.bodyJson(), headers: {'Idempotency-Key': attempt.key});
    return _decode(body, (json) => HandoffSession.decode(json, urls));
  }

  @override
  Future<VerificationHandoff> createVerificationHandoff(String workflow) async {
    final body = await _send('POST', const ['v2', 'verification-handoffs'], body: jsonEncode({'workflow': workflow}));
    return _decode(body, (json) => VerificationHandoff.decode(json, urls));
  }

  @override
  Future<VerificationState> verification(String workflow) async {
    final body = await _send('GET', ['v2', 'verifications', workflow]);
    return _decode(body, VerificationState.decode);
  }

  @override
  Future<ConnectSession> createConnectSession(ConnectCallbackKind callback) async {
    final body = await _send('POST', const ['v2', 'connect-sessions'], body: jsonEncode({'callback': callback.wire}));
    return _decode(body, (json) => ConnectSession.decode(json, urls));
  }

  @override
  Future<ConnectSessionState> connectSession(String sessionId) async {
    final body = await _send('GET', ['v2', 'connect-sessions', sessionId]);
    return _decode(body, ConnectSessionState.decode);
  }

  /// The URL for [path], each segment percent-encoded over its UTF-8 bytes (RFC 3986 unreserved characters stay):
  /// an opaque id is always one path segment, never parsed.
  Uri urlFor(List<String> path) => Uri.parse(_base + path.map((segment) => '/${encodeSegment(segment)}').join());

  /// [segment] with everything but `A-Z a-z 0-9 - . _ ~` percent-encoded.
  static String encodeSegment(String segment) {
    final out = StringBuffer();
    for (final byte in utf8.encode(segment)) {
      final unreserved = (byte >= 0x41 && byte <= 0x5a) ||
          (byte >= 0x61 && byte <= 0x7a) ||
          (byte >= 0x30 && byte <= 0x39) ||
          byte == 0x2d ||
          byte == 0x2e ||
          byte == 0x5f ||
          byte == 0x7e;
      out.write(unreserved ? String.fromCharCode(byte) : '%${byte.toRadixString(16).toUpperCase().padLeft(2, '0')}');
    }
    return out.toString();
  }

  Future<List<int>> _send(String method, List<String> path, {String? body, Map<String, String>? headers}) async {
    String? token;
    try {
      token = await tokenProvider();
    } catch (_) {
      token = null;
    }
    if (token == null || token.isEmpty) throw const BackendError.notAuthenticated();
    final request = http.Request(method, urlFor(path));
    request.headers['Authorization'] = 'Bearer $token';
    request.headers['Accept'] = 'application/json, application/problem+json';
    request.headers['Cache-Control'] = 'no-cache';
    if (body != null) {
      request.bodyBytes = utf8.encode(body);
      request.headers['Content-Type'] = 'application/json';
    }
    if (headers != null) request.headers.addAll(headers);
    http.Response response;
    try {
      response = await _client.send(request).then(http.Response.fromStream).timeout(timeout);
    } on TimeoutException {
      throw const BackendError.transport(TransportFailure.timedOut);
    } on TlsException {
      throw const BackendError.transport(TransportFailure.tlsFailure);
    } on http.ClientException {
      throw const BackendError.transport(TransportFailure.connectionFailed);
    } catch (_) {
      throw const BackendError.transport(TransportFailure.connectionFailed);
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw BackendError.http(response.statusCode, problemCodeOf(response.bodyBytes), response.headers['retry-after']);
    }
    return response.bodyBytes;
  }

  /// The `code` of a problem+json body, when there is one.
  static ProblemCode? problemCodeOf(List<int> body) {
    try {
      final json = jsonDecode(utf8.decode(body));
      if (json is Map && json['code'] is String) return ProblemCode(json['code'] as String);
    } on FormatException {
      return null;
    }
    return null;
  }

  static T _decode<T>(List<int> body, T Function(Object? json) decoder) {
    try {
      return decoder(jsonDecode(utf8.decode(body)));
    } on FormatException {
      throw const BackendError.malformedResponse();
    } on TypeError {
      throw const BackendError.malformedResponse();
    }
  }
}
