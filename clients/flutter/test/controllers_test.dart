// The controllers' own rules over fakes (the defects issue 28 found in the React Native controller, kept out of the
// Dart one): the share is sent only once its key and body are stored; a failed browser open ends on a screen and is
// reported; a dismissed web view's late end is ignored. Run with `flutter test` in clients/flutter.
// NOT RUN HERE: no machine that builds Baton has a Flutter SDK (docs/flutter.md).
import 'dart:async';

import 'package:baton/baton.dart';
import 'package:flutter_test/flutter_test.dart';

const shareCard = {
  'id': 'item-1',
  'presentation_contract': {
    'block_order': ['image', 'title', 'summary', 'price'],
  },
  'title': 'Care plan',
  'summary': 'A plan.',
  'priceText': r'$10',
  'image': {'url': 'https://partner.example/assets/a.png', 'alt': 'A plan'},
  'handoff': {
    'mode': 'share_or_neutral',
    'heading': 'Share with Chia?',
    'body': 'Body',
    'recipient': {'legal_name': 'Chia Health', 'privacy_contact': 'privacy@chia.example'},
    'dataShared': ['Your selection'],
    'purpose': 'Purpose',
    'compensationDisclosure': 'Disclosure',
    'policyUrls': {'privacy': 'https://chia.example/privacy'},
    'primary': {
      'actionLabel': 'Share selection and continue',
      'sessionCreationPath': '/v2/handoff-sessions',
      'disclosureVersion': 'v1',
    },
    'secondary': {'actionLabel': 'Continue without sharing', 'url': 'https://chia.example/neutral'},
  },
};

/// Records the order of storage writes and backend calls; the save can be held open.
class Recorder implements BackendClient, BatonStorage {
  final List<String> log = [];
  Completer<void>? holdSave;

  @override
  Future<List<CatalogCard>> catalog() async {
    log.add('GET /v2/catalog');
    return [CatalogCard.decode(shareCard)!];
  }

  @override
  Future<HandoffSession> createHandoffSession(PendingAttempt attempt) async {
    log.add('POST /v2/handoff-sessions ${attempt.key}');
    return HandoffSession(const SensitiveUrl('https://chia.test/h/phs_1'), null);
  }

  @override
  Future<VerificationHandoff> createVerificationHandoff(String workflow) => throw UnimplementedError();
  @override
  Future<VerificationState> verification(String workflow) => throw UnimplementedError();
  @override
  Future<ConnectSession> createConnectSession(ConnectCallbackKind callback) => throw UnimplementedError();
  @override
  Future<ConnectSessionState> connectSession(String sessionId) => throw UnimplementedError();

  @override
  Future<String?> getItem(String key) async => null;

  @override
  Future<void> setItem(String key, String value) async {
    log.add('save $key');
    final hold = holdSave;
    if (hold != null) await hold.future;
    log.add('saved $key');
  }

  @override
  Future<void> removeItem(String key) async {
    log.add('remove $key');
  }
}

class RefusingBrowser implements ExternalBrowserPresenter {
  int opens = 0;

  @override
  Future<BrowserCompletion> present(SensitiveUrl url) async {
    opens += 1;
    return BrowserCompletion.failedToOpen;
  }
}

Future<void> settle() => Future<void>.delayed(Duration.zero);

void main() {
  late Recorder recorder;
  late BatonConfiguration configuration;

  setUp(() {
    recorder = Recorder();
    configuration = BatonConfiguration(
        backendUrl: 'https://partner.example', tokenProvider: () async => 'tok', userId: 'alice', storage: recorder);
  });

  test('the share leaves only after its key and body are stored', () async {
    final failures = <BatonFlowFailure>[];
    final chia = ChiaHandoffController(
        configuration: configuration,
        catalogItemId: 'item-1',
        backend: recorder,
        browser: RefusingBrowser(),
        newKey: () => '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        onFailure: failures.add);
    chia.callToActionTapped();
    await settle();
    expect(chia.screen, isA<ChiaShareOrNeutral>());
    recorder.holdSave = Completer<void>();
    chia.shareTapped();
    chia.shareTapped();
    await settle();
    expect(recorder.log.where((e) => e.startsWith('POST')), isEmpty, reason: 'nothing sent while the save is open');
    expect(chia.screen.shareEnabled, isFalse);
    recorder.holdSave!.complete();
    await settle();
    await settle();
    final posts = recorder.log.where((e) => e.startsWith('POST')).toList();
    expect(posts, ['POST /v2/handoff-sessions 3f2504e0-4f89-41d3-9a0c-0305e82c3301'], reason: 'a double tap joins');
    expect(recorder.log.indexOf('saved baton.user.u616c696365.chia.pendingAttempt'),
        lessThan(recorder.log.indexOf(posts.single)));
  });

  test('a browser that does not open ends on a screen and is reported', () async {
    final failures = <BatonFlowFailure>[];
    final browser = RefusingBrowser();
    final chia = ChiaHandoffController(
        configuration: configuration,
        catalogItemId: 'item-1',
        backend: recorder,
        browser: browser,
        onFailure: failures.add);
    chia.callToActionTapped();
    await settle();
    chia.continueTapped();
    await settle();
    await settle();
    expect(browser.opens, 1);
    expect(failures, [const BatonFlowFailure('chia', 'browser_failed_to_open')]);
    expect(recorder.log.where((e) => e == 'GET /v2/catalog').length, 2, reason: 'the projection is fetched again');
    expect(chia.screen, isA<ChiaShareOrNeutral>());
  });

  test("signOut forgets both of this user's stored values, and only those", () async {
    await signOut(configuration, eraseWebData: false);
    expect(recorder.log,
        ['remove baton.user.u616c696365.chia.pendingAttempt', 'remove baton.user.u616c696365.bb.pendingSession']);
    expect(storageKeys('a.b').chiaPendingAttempt, 'baton.user.u612e62.chia.pendingAttempt');
    expect(storageKeys('a').chiaPendingAttempt, 'baton.user.u61.chia.pendingAttempt');
  });
}
