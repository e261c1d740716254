// Signing a sandbox test user in: `POST /web/dev-token?user=ID` on `baton serve --sandbox`, with the dev sign-in
// secret that run printed at start in `X-Baton-Dev-Secret` (local requests only; 403 without the secret). A real app
// signs in with its own identity provider instead.
import 'dart:convert';

import 'package:baton/baton.dart';
import 'package:http/http.dart' as http;
import 'package:shared_preferences/shared_preferences.dart';

/// The sandbox backend. `baton serve --sandbox` (default port 8080) runs Chia, Privue and BB on the next three ports.
/// The iOS Simulator shares the Mac's loopback; on an Android emulator run `adb reverse` for the four ports (README).
/// `flutter run --dart-define=BATON_SANDBOX=http://127.0.0.1:9080` for another port.
const String sandboxOrigin = String.fromEnvironment('BATON_SANDBOX', defaultValue: 'http://127.0.0.1:8080');

/// A token made outside the app (`baton token --user ID`), passed with `--dart-define=BATON_TOKEN=...` together with
/// `--dart-define=BATON_USER=ID`: the alternative to pasting the dev sign-in secret.
const String definedToken = String.fromEnvironment('BATON_TOKEN');
const String definedUser = String.fromEnvironment('BATON_USER', defaultValue: 'test-user-1');

/// Privue's workflow in the sandbox.
const String sandboxWorkflow = 'merchant-onboarding';

/// The return URLs the sandbox registers with its simulators (Sources/BatonCLI/Serve/SandboxDevelopment.swift).
const BatonReturnUrls sandboxReturnUrls = BatonReturnUrls(
  privue: ['https://app.example.com/kyc/done'],
  bb: BbReturnUrls(https: 'https://app.example.com/bb-callback', customScheme: 'acmewallet://bb-callback'),
);

/// Why the sign-in failed, in words the signed-out screen shows.
class SandboxSignInError implements Exception {
  const SandboxSignInError(this.message);

  final String message;

  @override
  String toString() => message;
}

/// The sandbox's token for [userId]. Neither the secret nor the token is logged or stored.
Future<String> sandboxToken(String userId, String devSecret) async {
  final secret = devSecret.trim();
  if (secret.isEmpty) {
    throw const SandboxSignInError('Paste the dev sign-in secret that baton serve --sandbox printed at start.');
  }
  final url = Uri.parse('$sandboxOrigin/web/dev-token').replace(queryParameters: {'user': userId});
  final http.Response response;
  try {
    response = await http.post(url, headers: {'X-Baton-Dev-Secret': secret});
  } catch (_) {
    throw const SandboxSignInError(
        'The sandbox did not answer: is baton serve --sandbox running (and, on Android, adb reverse set)?');
  }
  if (response.statusCode == 403) {
    throw const SandboxSignInError(
        'dev-token answered 403: copy the dev sign-in secret this run of baton serve --sandbox printed.');
  }
  if (response.statusCode != 200) throw SandboxSignInError('dev-token answered ${response.statusCode}.');
  final Object? body;
  try {
    body = jsonDecode(response.body);
  } on FormatException {
    throw const SandboxSignInError('dev-token answered something that is not JSON.');
  }
  final token = body is Map<String, Object?> ? body['token'] : null;
  if (token is! String || token.isEmpty) throw const SandboxSignInError('dev-token answered no token.');
  return token;
}

/// One signed-in user's configuration: the flows keep what they keep under this user's own storage keys.
BatonConfiguration configurationFor(String userId, String token) => BatonConfiguration(
      backendUrl: sandboxOrigin,
      tokenProvider: () async => token,
      userId: userId,
      storage: SharedPreferencesBatonStorage(),
      returnUrls: sandboxReturnUrls,
      // The sandbox is plain http on loopback: development only (a release build refuses it), never ship it.
      urlPolicy: UrlPolicy.development,
    );

/// BatonStorage over shared_preferences, so a pending share attempt or BB session survives a restart.
class SharedPreferencesBatonStorage implements BatonStorage {
  @override
  Future<String?> getItem(String key) async => (await SharedPreferences.getInstance()).getString(key);

  @override
  Future<void> setItem(String key, String value) async {
    if (!await (await SharedPreferences.getInstance()).setString(key, value)) {
      throw StateError('shared_preferences did not save $key');
    }
  }

  @override
  Future<void> removeItem(String key) async {
    await (await SharedPreferences.getInstance()).remove(key);
  }
}
