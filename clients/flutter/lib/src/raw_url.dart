// A transcription of clients/react-native/src/core/rawUrl.ts (itself of BatonCore's RawURLComponents,
// docs/CONTRACTS.md §1). Dart's Uri.parse repairs and normalises; a return link must be judged exactly as delivered.

/// The parts of an absolute `scheme://authority/path?query#fragment` URL, split strictly and never normalised.
class RawUrl {
  const RawUrl(this.scheme, this.userinfo, this.host, this.port, this.path, this.query, this.fragment);

  final String scheme;
  final String? userinfo;
  final String host;
  final int? port;
  final String path;
  final String? query;
  final String? fragment;

  static final RegExp _scheme = RegExp(r'^[A-Za-z][A-Za-z0-9+.\-]*$');
  static final RegExp _regName = RegExp(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]|[^\x00-\x7F])*$");
  static final RegExp _ipv6Inner = RegExp(r'^[0-9A-Fa-f:.%]+$');
  static final RegExp _digits = RegExp(r'^[0-9]+$');

  /// Splits [text], or answers null when it is not a strictly well-formed absolute URL with an authority.
  static RawUrl? parse(String text) {
    for (final unit in text.codeUnits) {
      if (unit <= 0x20 || unit == 0x7f) return null;
    }
    final colon = text.indexOf(':');
    if (colon < 0) return null;
    final scheme = text.substring(0, colon);
    if (!_scheme.hasMatch(scheme)) return null;
    if (!text.startsWith('//', colon + 1)) return null;
    final authorityStart = colon + 3;
    var authorityEnd = text.length;
    for (var i = authorityStart; i < text.length; i++) {
      final c = text[i];
      if (c == '/' || c == '?' || c == '#') {
        authorityEnd = i;
        break;
      }
    }
    final authority = text.substring(authorityStart, authorityEnd);
    if (authority.contains('\\')) return null;
    final at = authority.lastIndexOf('@');
    final userinfo = at >= 0 ? authority.substring(0, at) : null;
    final hostAndPort = at >= 0 ? authority.substring(at + 1) : authority;
    String host;
    String? portText;
    if (hostAndPort.startsWith('[')) {
      final close = hostAndPort.indexOf(']');
      if (close < 0) return null;
      host = hostAndPort.substring(0, close + 1);
      final after = hostAndPort.substring(close + 1);
      if (after.isEmpty) {
        portText = null;
      } else if (after.startsWith(':')) {
        portText = after.substring(1);
      } else {
        return null;
      }
      if (!_ipv6Inner.hasMatch(host.substring(1, host.length - 1))) return null;
    } else {
      final portColon = hostAndPort.indexOf(':');
      host = portColon >= 0 ? hostAndPort.substring(0, portColon) : hostAndPort;
      portText = portColon >= 0 ? hostAndPort.substring(portColon + 1) : null;
      if (!_regName.hasMatch(host)) return null;
    }
    int? port;
    if (portText != null && portText.isNotEmpty) {
      if (portText.length > 5 || !_digits.hasMatch(portText)) return null;
      port = int.parse(portText);
      if (port > 65535) return null;
    }
    var rest = text.substring(authorityEnd);
    String? fragment;
    final hash = rest.indexOf('#');
    if (hash >= 0) {
      fragment = rest.substring(hash + 1);
      rest = rest.substring(0, hash);
    }
    String? query;
    final question = rest.indexOf('?');
    if (question >= 0) {
      query = rest.substring(question + 1);
      rest = rest.substring(0, question);
    }
    return RawUrl(scheme, userinfo, host, port, rest, query, fragment);
  }

  /// The port, or the scheme's default.
  int? get effectivePort => port ?? defaultPort(scheme);

  /// The path; an empty http(s) path reads as `/`.
  String get effectivePath {
    final lower = asciiLowercase(scheme);
    return path.isEmpty && (lower == 'https' || lower == 'http') ? '/' : path;
  }
}

/// ASCII-only lowercase (`toLowerCase` would also fold non-ASCII letters, which the contract does not).
String asciiLowercase(String text) {
  final units = text.codeUnits.map((u) => u >= 0x41 && u <= 0x5a ? u + 32 : u).toList();
  return String.fromCharCodes(units);
}

/// The default port of a scheme: 443 for https and wss, 80 for http and ws, else null.
int? defaultPort(String scheme) {
  switch (asciiLowercase(scheme)) {
    case 'https':
    case 'wss':
      return 443;
    case 'http':
    case 'ws':
      return 80;
    default:
      return null;
  }
}

/// An absolute https URL with a host and no userinfo (BatonCore `HTTPSURL`).
bool isHttpsUrl(String text) {
  final url = RawUrl.parse(text);
  return url != null && url.host.isNotEmpty && url.userinfo == null && asciiLowercase(url.scheme) == 'https';
}
