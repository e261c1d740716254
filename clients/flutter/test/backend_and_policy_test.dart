// HttpBackendClient over package:http's MockClient (requests, path encoding, problem codes, Retry-After, retry
// categories, signed-out, malformed bodies, the development URL policy, redacted errors) and JourneyWebPolicy (the
// camera for the journey's origin only, never the microphone; navigation). Run with `flutter test` in clients/flutter.
// NOT RUN HERE: no machine that builds Baton has a Flutter SDK (docs/flutter.md).
import 'dart:convert';

import 'package:baton/baton.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:http/http.dart' as http;
import 'package:http/testing.dart';

HttpBackendClient clientAnswering(http.Response Function(http.Request request) answer,
    {List<http.Request>? seen, String? token = 'tok', UrlPolicy urls = UrlPolicy.production, String? base}) {
  return HttpBackendClient(
    baseUrl: base ?? 'https://partner.example/',
    tokenProvider: () async => token,
    urls: urls,
    client: MockClient((request) async {
      seen?.add(request);
      return answer(request);
    }),
  );
}

http.Response json(Object body, int status, [Map<String, String> headers = const {}]) =>
    http.Response(jsonEncode(body), status, headers: {'content-type': 'application/json', ...headers});

void main() {
  group('HttpBackendClient', () {
    test('sends the bearer token, the idempotency key and exactly the attempt body', () async {
      final seen = <http.Request>[];
      final client = clientAnswering((_) => json({'url': 'https://chia.test/h/phs_1', 'expiresAt': null}, 201),
          seen: seen);
      const attempt = PendingAttempt('3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'item-1', 'v1', '2026-01-01T00:00:05Z');
      final session = await client.createHandoffSession(attempt);
      expect(session.url.reveal(), 'https://chia.test/h/phs_1');
      expect(seen.single.method, 'POST');
      expect(seen.single.url.toString(), 'https://partner.example/v2/handoff-sessions');
      expect(seen.single.headers['Authorization'], 'Bearer tok');
      expect(seen.single.headers['Idempotency-Key'], attempt.key);
      expect(seen.single.body, attempt.bodyJson());
    });

    test('an opaque id is one percent-encoded path segment', () async {
      final seen = <http.Request>[];
      final client = clientAnswering((_) => json({'sessionId': 'a/b c', 'status': 'pending'}, 200), seen: seen);
      await client.connectSession('a/b c?é');
      expect(seen.single.url.toString(), 'https://partner.example/v2/connect-sessions/a%2Fb%20c%3F%C3%A9');
    });

    test('a problem answer keeps status, code and Retry-After, and classifies as the contract says', () async {
      final client = clientAnswering((_) => json({'code': 'rate_limited', 'status': 429}, 429, {'retry-after': '7'}));
      final error = await client.verification('merchant-onboarding').then<BackendError?>((_) => null,
          onError: (Object e) => e as BackendError);
      expect(error!.kind, BackendErrorKind.http);
      expect(error.status, 429);
      expect(error.problemCode, ProblemCode.rateLimited);
      expect(error.retryAfter, '7');
      expect(error.failure, RequestFailure.retryable);
      expect(error.toString(), 'backend answered 429 (rate_limited)');
    });

    test('a definitive refusal is definitive; a 401 ends polling', () async {
      final refused = clientAnswering((_) => json({'code': 'projection_changed'}, 409));
      final unauthorized = clientAnswering((_) => json({'code': 'unauthorized'}, 401));
      Future<BackendError> failureOf(Future<Object?> call) =>
          call.then<BackendError>((_) => throw StateError('no error'), onError: (Object e) => e as BackendError);
      expect((await failureOf(refused.catalog())).failure, RequestFailure.definitive);
      expect((await failureOf(unauthorized.catalog())).failure, RequestFailure.definitive);
    });

    test('signed out: nothing is sent', () async {
      final seen = <http.Request>[];
      final client = clientAnswering((_) => json({}, 200), seen: seen, token: null);
      await expectLater(client.catalog(), throwsA(isA<BackendError>()));
      expect(seen, isEmpty);
    });

    test('a 2xx that does not decode is a malformed response, retried unchanged for a share', () async {
      final client = clientAnswering((_) => http.Response('not json', 201));
      final error = await client
          .createHandoffSession(const PendingAttempt('3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'i', 'v', 't'))
          .then<BackendError?>((_) => null, onError: (Object e) => e as BackendError);
      expect(error!.kind, BackendErrorKind.malformedResponse);
      expect(RetryDecision.classify(error.shareOutcome, DateTime.utc(2026)).decision, 'retry');
    });

    test('a loopback http journey URL passes only under the development policy', () async {
      http.Response answer(http.Request _) => json({'url': 'http://127.0.0.1:8082/j#ticket=t', 'expiresInSeconds': 120}, 200);
      final production = clientAnswering(answer);
      await expectLater(production.createVerificationHandoff('w'), throwsA(isA<BackendError>()));
      final development = clientAnswering(answer, urls: UrlPolicy.development, base: 'http://127.0.0.1:8080');
      expect((await development.createVerificationHandoff('w')).url.reveal(), 'http://127.0.0.1:8082/j#ticket=t');
      expect(() => clientAnswering(answer, base: 'http://127.0.0.1:8080'), throwsA(isA<BatonConfigurationError>()));
    });

    test('a journey URL never prints', () async {
      final client = clientAnswering((_) => json({'url': 'https://verify.example/j#ticket=secret'}, 200));
      final handoff = await client.createVerificationHandoff('w');
      expect(handoff.url.toString(), isNot(contains('secret')));
      expect(jsonEncode({'url': handoff.url}), isNot(contains('secret')));
    });
  });

  group('JourneyWebPolicy', () {
    final policy = JourneyWebPolicy(const SensitiveUrl('https://verify.example/acme/flow#ticket=t'),
        [RegisteredReturnUrl('https://app.example.com/kyc/done')]);

    test('grants the camera alone to the journey origin', () {
      expect(policy.grant('https://verify.example', [MediaResource.camera]), [MediaResource.camera]);
      expect(policy.grant('https://verify.example:443/', [MediaResource.camera, MediaResource.microphone]),
          [MediaResource.camera]);
    });

    test('never the microphone, never another origin', () {
      expect(policy.grant('https://verify.example', [MediaResource.microphone]), isEmpty);
      expect(policy.grant('https://verify.example', [MediaResource.cameraAndMicrophone]), isEmpty);
      expect(policy.grant('https://digilocker.example', [MediaResource.camera]), isEmpty);
      expect(policy.grant('http://verify.example', [MediaResource.camera]), isEmpty);
      expect(policy.grant('https://verify.example:8443', [MediaResource.camera]), isEmpty);
    });

    test('catches the registered return, loads https, refuses the rest', () {
      final back = policy.decideNavigation('https://app.example.com/kyc/done?verification_id=v&status=submitted');
      expect(back.kind, JourneyNavigationDecisionKind.interceptReturn);
      expect(policy.decideNavigation('https://digilocker.example/consent').kind, JourneyNavigationDecisionKind.allow);
      expect(policy.decideNavigation('about:blank').kind, JourneyNavigationDecisionKind.allow);
      expect(policy.decideNavigation('http://verify.example/x').kind, JourneyNavigationDecisionKind.cancel);
      expect(policy.decideNavigation('intent://x#Intent;end').kind, JourneyNavigationDecisionKind.cancel);
      expect(policy.decideNavigation('http://127.0.0.1:8082/x').kind, JourneyNavigationDecisionKind.cancel);
    });

    test('loopback http only under the development policy', () {
      final dev = JourneyWebPolicy(const SensitiveUrl('http://127.0.0.1:8082/j#ticket=t'), const [],
          urls: UrlPolicy.development);
      expect(dev.canLoadJourney, isTrue);
      expect(dev.decideNavigation('http://127.0.0.1:8082/next').kind, JourneyNavigationDecisionKind.allow);
      expect(dev.grant('http://127.0.0.1:8082', [MediaResource.camera]), [MediaResource.camera]);
      expect(dev.decideNavigation('http://example.com/').kind, JourneyNavigationDecisionKind.cancel);
    });
  });

  group('ConnectCallback', () {
    const bb = BbReturnUrls(https: 'https://app.example.com/bb-callback', customScheme: 'AcmeWallet://bb-callback');

    test('https on iOS 17.4+ and Android, the custom scheme below', () {
      final https = ConnectCallback.choose(bb, deviceSupportsHttpsCallback: true) as HttpsConnectCallback;
      expect([https.host, https.path], ['app.example.com', '/bb-callback']);
      final custom = ConnectCallback.choose(bb, deviceSupportsHttpsCallback: false) as CustomSchemeConnectCallback;
      expect(custom.normalized, 'acmewallet');
      expect(ConnectCallback.iosSupportsHttpsCallback('17.4'), isTrue);
      expect(ConnectCallback.iosSupportsHttpsCallback('Version 17.3.1 (Build 21D61)'), isFalse);
      expect(ConnectCallback.iosSupportsHttpsCallback('18.0'), isTrue);
    });
  });
}
