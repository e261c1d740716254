// A journey URL that can never be printed, logged, encoded to JSON or persisted by accident.
import 'raw_url.dart';
import 'url_policy.dart';

/// A short-lived journey URL (Chia `phs_…`, BB `hostedUrl`, Privue handoff with its `#ticket=`), kept exactly as
/// received, fragment included.
///
/// `toString` and `toJson` are redacted; the only way to the string is [reveal], called by the one presenter that
/// opens it. It is never stored: nothing in this package writes it anywhere.
class SensitiveUrl {
  /// Wraps [value] unchecked (a URL the app already validated, such as a catalog card's neutral URL).
  const SensitiveUrl(this._value);

  final String _value;

  /// [text] as a journey URL when [policy] accepts it (`https`; loopback `http` only under
  /// [UrlPolicy.development]), else null.
  static SensitiveUrl? parse(String text, UrlPolicy policy) => policy.acceptsUrl(text) ? SensitiveUrl(text) : null;

  /// The exact string received. Only a browser presenter calls this.
  String reveal() => _value;

  /// `scheme://host/…`: safe to print.
  String get redacted {
    final url = RawUrl.parse(_value);
    return url == null ? '<journey URL redacted>' : '${asciiLowercase(url.scheme)}://${asciiLowercase(url.host)}/…';
  }

  /// Redacted, so `jsonEncode` cannot carry the URL into storage or telemetry.
  String toJson() => '<journey URL redacted>';

  @override
  String toString() => '<journey URL redacted>';
}
