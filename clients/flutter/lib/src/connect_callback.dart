// The return URL an authentication session catches for BB (BB *Mobile apps* "iOS"), Sources/BatonCore/API/
// ConnectCallback.swift: the universal-link return on iOS 17.4+ (and Android's app link), a custom scheme below.
import 'api_types.dart';
import 'configuration.dart';
import 'raw_url.dart';
import 'return_links.dart';

/// What the device's authentication session catches.
sealed class ConnectCallback {
  const ConnectCallback();

  /// The kind sent to `POST /v2/connect-sessions`.
  ConnectCallbackKind get kind;

  /// The callback this device catches (BB *Mobile apps*): the universal/app link of [bb] when
  /// [deviceSupportsHttpsCallback], else its custom scheme. Throws [ReturnUrlRegistrationError] when the chosen URL
  /// is not of its kind.
  static ConnectCallback choose(BbReturnUrls bb, {required bool deviceSupportsHttpsCallback}) {
    if (deviceSupportsHttpsCallback) {
      final url = RegisteredReturnUrl(bb.https);
      if (!url.isHttps) throw const ReturnUrlRegistrationError('not_https');
      return HttpsConnectCallback(url.host, url.path);
    }
    final url = RegisteredReturnUrl(bb.customScheme);
    if (url.scheme == 'https' || url.scheme == 'http') throw const ReturnUrlRegistrationError('not_custom_scheme');
    return CustomSchemeConnectCallback(url.scheme);
  }

  /// Whether an iOS of [systemVersion] (`17.4`, or `Version 17.4 (Build 21E213)`) has
  /// `ASWebAuthenticationSession.Callback.https` (iOS 17.4+).
  static bool iosSupportsHttpsCallback(String systemVersion) {
    final match = RegExp(r'(\d+)\.(\d+)').firstMatch(systemVersion);
    if (match == null) return false;
    final major = int.parse(match.group(1)!);
    final minor = int.parse(match.group(2)!);
    return major > 17 || (major == 17 && minor >= 4);
  }
}

/// `ASWebAuthenticationSession.Callback.https(host:path:)` / flutter_web_auth_2's `httpsHost` + `httpsPath`.
final class HttpsConnectCallback extends ConnectCallback {
  const HttpsConnectCallback(this.host, this.path);

  final String host;
  final String path;

  @override
  ConnectCallbackKind get kind => ConnectCallbackKind.https;
}

/// `callbackURLScheme` / flutter_web_auth_2's `callbackUrlScheme`.
final class CustomSchemeConnectCallback extends ConnectCallback {
  const CustomSchemeConnectCallback(this.scheme);

  /// The scheme, ASCII-lowercased (flutter_web_auth_2 refuses upper case).
  final String scheme;

  @override
  ConnectCallbackKind get kind => ConnectCallbackKind.customScheme;

  /// The scheme as flutter_web_auth_2 wants it.
  String get normalized => asciiLowercase(scheme);
}
