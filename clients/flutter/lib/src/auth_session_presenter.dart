// BB in an authentication session through flutter_web_auth_2 (`FlutterWebAuth2.authenticate`): ASWebAuthenticationSession
// on iOS, Chrome's Auth Tab (or a Custom Tab where the browser has no Auth Tab) on Android. Never the system
// browser app, never a web view. Reviewed source: NOT compiled or run here (no Flutter SDK); the calls follow
// flutter_web_auth_2 5.x's published API (`authenticate({url, callbackUrlScheme, options})`,
// `FlutterWebAuth2Options(httpsHost:, httpsPath:, preferEphemeral:)`, `PlatformException` code `CANCELED`).
import 'dart:io' show Platform;

import 'package:flutter/services.dart' show PlatformException;
import 'package:flutter_web_auth_2/flutter_web_auth_2.dart';

import 'browser.dart';
import 'connect_callback.dart';
import 'sensitive_url.dart';

/// Whether this device's authentication session can catch an https return: Android (an app link, through the
/// plugin's `CallbackActivity`) and iOS 17.4+ (`ASWebAuthenticationSession.Callback.https`); below iOS 17.4 the
/// custom scheme is used, as BB's guide says.
bool deviceSupportsHttpsCallback() {
  if (Platform.isAndroid) return true;
  if (Platform.isIOS) return ConnectCallback.iosSupportsHttpsCallback(Platform.operatingSystemVersion);
  return false;
}

/// The default [AuthSessionPresenter].
class FlutterWebAuth2Presenter implements AuthSessionPresenter {
  const FlutterWebAuth2Presenter({this.preferEphemeral = false});

  /// `prefersEphemeralWebBrowserSession` on iOS (and the plugin's ephemeral mode on Android).
  final bool preferEphemeral;

  /// Plugin error codes meaning the session never started.
  static const List<String> _notStarted = [
    'ACQUIRE_ROOT_VIEW_CONTROLLER_FAILED',
    'INVALID_HTTPS_HOST_ERROR',
    'INVALID_HTTPS_PATH_ERROR',
  ];

  @override
  Future<BrowserCompletion> present(SensitiveUrl url, ConnectCallback callback) async {
    final String scheme;
    final FlutterWebAuth2Options options;
    if (callback is HttpsConnectCallback) {
      scheme = 'https';
      options = FlutterWebAuth2Options(
          httpsHost: callback.host, httpsPath: callback.path, preferEphemeral: preferEphemeral);
    } else if (callback is CustomSchemeConnectCallback) {
      scheme = callback.normalized;
      options = FlutterWebAuth2Options(preferEphemeral: preferEphemeral);
    } else {
      return BrowserCompletion.failedToOpen;
    }
    try {
      final result = await FlutterWebAuth2.authenticate(url: url.reveal(), callbackUrlScheme: scheme, options: options);
      // The plugin answers '' when the channel returned nothing: no URL and no error is the user's close.
      return result.isEmpty ? BrowserCompletion.closedWithoutReturn : BrowserCompletion.returned(result);
    } on PlatformException catch (error) {
      // Never log the error: its details may describe the session.
      if (error.code == 'CANCELED') return BrowserCompletion.closedWithoutReturn;
      if (_notStarted.contains(error.code)) return BrowserCompletion.failedToOpen;
      return BrowserCompletion.failed;
    } on ArgumentError {
      // An invalid callback scheme: nothing was shown.
      return BrowserCompletion.failedToOpen;
    } catch (_) {
      return BrowserCompletion.failed;
    }
  }
}
