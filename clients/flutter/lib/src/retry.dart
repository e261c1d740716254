// A transcription of clients/react-native/src/core/retry.ts (seed 000 tap sequence; docs/CONTRACTS.md §2 app rule).
import 'dart:convert';

export 'sensitive_url.dart';

/// What the HTTP layer observed for one `POST /v2/handoff-sessions`: a response, or a transport failure.
class ShareOutcome {
  const ShareOutcome.response(int this.status, this.retryAfter) : transport = null;
  const ShareOutcome.transport(String this.transport)
      : status = null,
        retryAfter = null;

  final int? status;
  final String? retryAfter;
  final String? transport;
}

/// retry (keep body and key), sign_in_and_retry (sign in, then retry with both), refetch_projection, or done.
class RetryDecision {
  const RetryDecision(this.decision, [this.retryAfterSeconds]);

  final String decision;
  final int? retryAfterSeconds;

  /// Network errors, 408, 429 and 5xx retry; 401 re-signs in; other 4xx discard and refetch; 2xx is done.
  static RetryDecision classify(ShareOutcome outcome, DateTime now) {
    final status = outcome.status;
    if (status == null) return const RetryDecision('retry');
    if (status >= 200 && status <= 299) return const RetryDecision('done');
    if (status == 401) return const RetryDecision('sign_in_and_retry');
    if (status == 408 || status == 429 || (status >= 500 && status <= 599)) {
      final after = outcome.retryAfter;
      return RetryDecision('retry', after == null ? null : retryAfterSeconds(after, now));
    }
    if (status >= 400 && status <= 499) return const RetryDecision('refetch_projection');
    return const RetryDecision('retry');
  }

  static const List<String> _days = ['Mon,', 'Tue,', 'Wed,', 'Thu,', 'Fri,', 'Sat,', 'Sun,'];
  static const List<String> _months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  static final RegExp _digits = RegExp(r'^[0-9]+$');

  /// RFC 9110 `Retry-After`: delay-seconds, or an IMF-fixdate against [now] (past is 0); null when malformed.
  static int? retryAfterSeconds(String value, DateTime now) {
    final trimmed = value.replaceAll(RegExp(r'^[ \t]+|[ \t]+$'), '');
    if (_digits.hasMatch(trimmed)) return trimmed.length > 9 ? 2147483647 : int.parse(trimmed);
    final parts = trimmed.split(' ');
    if (parts.length != 6 || !_days.contains(parts[0]) || parts[5] != 'GMT') return null;
    final month = _months.indexOf(parts[2]);
    final time = parts[4].split(':');
    if (month < 0 || parts[1].length != 2 || parts[3].length != 4 || time.length != 3) return null;
    if (!_digits.hasMatch(parts[1]) || !_digits.hasMatch(parts[3]) || time.any((t) => t.length != 2 || !_digits.hasMatch(t))) {
      return null;
    }
    final day = int.parse(parts[1]);
    final hour = int.parse(time[0]);
    final minute = int.parse(time[1]);
    final second = int.parse(time[2]);
    if (hour >= 24 || minute >= 60 || second >= 61) return null;
    final date = DateTime.utc(int.parse(parts[3]), month + 1, day, hour, minute, second);
    if (date.day != day) return null;
    final millis = date.difference(now).inMilliseconds;
    return millis <= 0 ? 0 : (millis + 999) ~/ 1000;
  }
}

/// The exact share body and its key: persisted before the first send and kept, byte for byte, until a success or a
/// definitive rejection. Never the journey URL.
class PendingAttempt {
  const PendingAttempt(this.key, this.catalogItemId, this.disclosureVersion, this.affirmedAt);

  final String key;
  final String catalogItemId;
  final String disclosureVersion;
  final String affirmedAt;

  /// The JSON sent: keys sorted, slashes unescaped.
  String bodyJson() => jsonEncode({
        'affirmed': true,
        'affirmedAt': affirmedAt,
        'catalogItemId': catalogItemId,
        'disclosureVersion': disclosureVersion,
      });
}

/// RFC 3339 in UTC, whole seconds (`2026-01-01T00:00:05Z`).
String rfc3339(DateTime time) {
  final utc = time.toUtc();
  String two(int n) => n.toString().padLeft(2, '0');
  return '${utc.year.toString().padLeft(4, '0')}-${two(utc.month)}-${two(utc.day)}'
      'T${two(utc.hour)}:${two(utc.minute)}:${two(utc.second)}Z';
}

final RegExp _idempotencyKey =
    RegExp(r'^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89abAB][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$');

/// A canonical UUIDv4 `Idempotency-Key`.
bool isIdempotencyKey(String text) => _idempotencyKey.hasMatch(text);
