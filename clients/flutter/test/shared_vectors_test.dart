// The shared Conformance/ vectors against the Dart flow machines and parsers: return-links.v1.json,
// retry-classification.v1.json and interaction.v1.json, through the same runners as the TypeScript shell
// (clients/react-native/test/flowRunners.ts, vectors.ts). Run with `flutter test` in clients/flutter.
// NOT RUN HERE: no machine that builds Baton has a Flutter SDK (docs/flutter.md); scripts/test runs it only when
// `flutter` is on PATH.
import 'dart:convert';
import 'dart:io';

import 'package:baton/src/catalog_card.dart';
import 'package:baton/src/link_router.dart';
import 'package:baton/src/chia_machine.dart';
import 'package:baton/src/connect_machine.dart';
import 'package:baton/src/api_types.dart';
import 'package:baton/src/polling.dart';
import 'package:baton/src/retry.dart';
import 'package:baton/src/return_links.dart';
import 'package:baton/src/verification_machine.dart';
import 'package:flutter_test/flutter_test.dart';

/// The repository's Conformance/ folder: BATON_CONFORMANCE_DIR, else found above the working directory.
Directory conformanceDir() {
  final given = Platform.environment['BATON_CONFORMANCE_DIR'];
  if (given != null) return Directory(given);
  var dir = Directory.current.absolute;
  while (true) {
    if (File('${dir.path}/Conformance/return-links.v1.json').existsSync()) return Directory('${dir.path}/Conformance');
    final parent = dir.parent;
    if (parent.path == dir.path) throw StateError('Conformance/ not found above the working directory');
    dir = parent;
  }
}

Map<String, dynamic> load(String name) =>
    jsonDecode(File('${conformanceDir().path}/$name').readAsStringSync()) as Map<String, dynamic>;

/// Structural JSON equality (key order ignored).
bool jsonEqual(Object? a, Object? b) {
  if (a is Map && b is Map) {
    return a.length == b.length && a.keys.every((k) => b.containsKey(k) && jsonEqual(a[k], b[k]));
  }
  if (a is List && b is List) {
    if (a.length != b.length) return false;
    for (var i = 0; i < a.length; i++) {
      if (!jsonEqual(a[i], b[i])) return false;
    }
    return true;
  }
  if (a is num && b is num) return a == b;
  return a == b;
}

DateTime at(Map<String, dynamic> e) => DateTime.parse(e['at'] as String);

RequestFailure failureOf(Object? text) => text == 'retryable' ? RequestFailure.retryable : RequestFailure.definitive;

String? checkReturnLink(Map<String, dynamic> c) {
  Object? actual;
  try {
    final registered = (c['registered'] as List?)?.cast<String>() ?? const <String>[];
    switch (c['flow']) {
      case 'connect':
        final r = ConnectReturnParser(registered).parse(c['url'] as String);
        final v = r.value;
        actual = v == null
            ? {'isReturn': false, 'reason': r.reason}
            : {
                'isReturn': true,
                'sessionId': v.sessionId,
                'resultCode': v.resultCode,
                'connectionId': v.connectionId,
                'error': v.error,
              };
      case 'verification':
        final r = VerificationReturnParser(registered).parse(c['url'] as String);
        final v = r.value;
        actual = v == null
            ? {'isReturn': false, 'reason': r.reason}
            : {'isReturn': true, 'verificationId': v.verificationId, 'status': v.statusHint};
      default:
        final r = GenericReturnParser(c['registeredHost'] as String).parse(c['url'] as String);
        actual = r.accepted ? {'isReturn': true, 'route': r.value} : {'isReturn': false, 'reason': r.reason};
    }
  } on ReturnUrlRegistrationError catch (error) {
    actual = {'usageError': error.code};
  }
  return jsonEqual(actual, c['expect']) ? null : 'got ${jsonEncode(actual)}';
}

String? checkRetry(Map<String, dynamic> c, DateTime now) {
  final o = c['outcome'] as Map<String, dynamic>;
  final outcome = o.containsKey('transport')
      ? ShareOutcome.transport(o['transport'] as String)
      : ShareOutcome.response(o['status'] as int, o['retryAfter'] as String?);
  final decision = RetryDecision.classify(outcome, now);
  final actual = <String, Object?>{'decision': decision.decision};
  if (decision.decision == 'retry') actual['retryAfterSeconds'] = decision.retryAfterSeconds;
  return jsonEqual(actual, c['expect']) ? null : 'got ${jsonEncode(actual)}';
}

Map<String, Object?> chiaRender(ChiaScreen screen) {
  final labels = screen.actionLabels;
  final enabled = <String>[
    if (screen.shareEnabled && labels.contains(shareLabel)) 'share',
    if (screen.continueEnabled && labels.isNotEmpty) 'continue',
  ];
  return {
    'render': screen.content,
    'actions': labels,
    'enabled': enabled,
    if (screen.notice != null) 'notice': screen.notice!.wire,
  };
}

typedef Runner = List<Object?> Function(Map<String, dynamic> event);

Runner chiaRunner(Map<String, dynamic> config, Map<String, dynamic> cards) {
  final host = config['genericReturnHost'] as String?;
  final generic = host == null || host.isEmpty ? null : GenericReturnParser(host);
  final id = config['catalogItemId'] as String;
  var machine = ChiaHandoffMachine(id, generic);
  PendingAttempt? stored;
  Object? body(PendingAttempt attempt) => jsonDecode(attempt.bodyJson());
  return (e) {
    final ChiaEvent input;
    switch (e['type']) {
      case 'cta':
        input = const ChiaCtaEvent();
      case 'projection':
        input = ChiaProjectionEvent(e['card'] == null ? null : CatalogCard.decode(cards[e['card']]));
      case 'projection_failed':
        input = const ChiaProjectionFailedEvent();
      case 'share_tap':
        input = ChiaShareTapEvent(at(e), e['freshKey'] as String);
      case 'continue_tap':
        input = const ChiaContinueTapEvent();
      case 'share_response':
        final status = e['status'] as int?;
        if (e.containsKey('transport')) {
          input = ChiaShareFailedEvent(ShareOutcome.transport(e['transport'] as String), at(e));
        } else if (status != null && status >= 200 && status <= 299) {
          input = ChiaShareSucceededEvent(SensitiveUrl(e['url'] as String));
        } else {
          input = ChiaShareFailedEvent(ShareOutcome.response(status!, e['retryAfter'] as String?), at(e));
        }
      case 'browser_failed':
        input = const ChiaBrowserFailedEvent();
      case 'return_link':
        input = ChiaReturnLinkEvent(e['url'] as String);
      case 'background':
        input = const ChiaBackgroundEvent();
      case 'foreground':
        input = const ChiaForegroundEvent();
      case 'tick':
        input = ChiaTickEvent(at(e));
      case 'restart':
        machine = ChiaHandoffMachine(id, generic);
        input = ChiaRestoredEvent(stored);
      default:
        throw StateError('unknown chia event ${e['type']}');
    }
    return machine.handle(input).map<Object?>((a) {
      if (a is ChiaRenderAction) return chiaRender(a.screen);
      if (a is ChiaFetchProjectionAction) return {'request': 'GET /v2/catalog'};
      if (a is ChiaSavePendingAttemptAction) {
        stored = a.attempt;
        return {'persist': 'save', 'idempotencyKey': a.attempt.key, 'body': body(a.attempt)};
      }
      if (a is ChiaSendShareRequestAction) {
        return {'request': 'POST /v2/handoff-sessions', 'idempotencyKey': a.attempt.key, 'body': body(a.attempt)};
      }
      if (a is ChiaDiscardPendingAttemptAction) {
        stored = null;
        return {'persist': 'discard'};
      }
      if (a is ChiaOpenExternalBrowserAction) return {'navigate': 'external', 'url': a.url.reveal()};
      if (a is ChiaScheduleTickAction) return {'tick': rfc3339(a.at)};
      if (a is ChiaRouteToMarketplaceHomeAction) return {'route': 'marketplace-home'};
      return {'signIn': 'required'};
    }).toList();
  };
}

Map<String, Object?> connectRender(ConnectScreen screen) => {
      'render': screen.content,
      if (screen is ConnectCouldNotStart) 'failure': screen.failure.name,
      if (screen is ConnectConfirming) 'hint': screen.hint.name,
    };

PollingPolicy pollingOf(Map<String, dynamic> config) {
  final polling = config['polling'] as Map<String, dynamic>;
  return PollingPolicy(intervalSeconds: polling['interval'] as int, timeoutSeconds: polling['timeout'] as int);
}

Runner connectRunner(Map<String, dynamic> config) {
  final cb = config['callback'] as Map<String, dynamic>;
  final kind = ConnectCallbackKind.fromWire(cb['kind'])!;
  final caught = cb['kind'] == 'https' ? 'https://${cb['host']}${cb['path']}' : cb['scheme'];
  final parser = ConnectReturnParser((config['registered'] as List).cast<String>());
  final polling = pollingOf(config);
  String? kept;
  var machine = ConnectMachine(kind, parser, polling: polling);
  return (e) {
    final ConnectEvent input;
    switch (e['type']) {
      case 'connect_tap':
        input = ConnectConnectTapEvent(at(e));
      case 'session_created':
        input = ConnectSessionCreatedEvent(e['sessionId'] as String, SensitiveUrl(e['hostedUrl'] as String),
            ConnectCallbackKind.fromWire(e['callback'])!);
      case 'session_failed':
        input = ConnectSessionFailedEvent(failureOf(e['failure']));
      case 'return_link':
        input = ConnectReturnLinkEvent(e['url'] as String, at(e));
      case 'sheet_return':
        input = ConnectBrowserReturnEvent(e['url'] as String, at(e));
      case 'cold_launch':
        // A new process: a new machine given only the session id the store kept.
        machine = ConnectMachine(kind, parser, polling: polling, storedPendingSessionId: kept);
        return [connectRender(machine.screen)];
      case 'browser_closed':
        input = ConnectBrowserClosedEvent(at(e));
      case 'session_state':
        input = ConnectSessionStateEvent(e['sessionId'] as String, ConnectSessionStatus.values.byName(e['status'] as String), at(e));
      case 'session_state_failed':
        input = ConnectSessionStateFailedEvent(failureOf(e['failure']), at(e));
      case 'background':
        input = const ConnectBackgroundEvent();
      case 'foreground':
        input = ConnectForegroundEvent(at(e));
      case 'restore':
        input = ConnectRestoreEvent(e['sessionId'] as String?, at(e));
      case 'tick':
        input = ConnectTickEvent(at(e));
      default:
        throw StateError('unknown connect event ${e['type']}');
    }
    return machine.handle(input).map<Object?>((a) {
      if (a is ConnectRenderAction) return connectRender(a.screen);
      if (a is ConnectCreateSessionAction) return {'request': 'POST /v2/connect-sessions', 'callback': a.callback.wire};
      if (a is ConnectOpenBrowserAction) {
        return {'navigate': 'authentication_session', 'url': a.url.reveal(), 'callback': caught};
      }
      if (a is ConnectFetchSessionAction) return {'request': 'GET /v2/connect-sessions/${a.sessionId}'};
      if (a is ConnectScheduleTickAction) return {'tick': rfc3339(a.at)};
      if (a is ConnectKeepPendingSessionAction) {
        kept = a.sessionId;
        return {'persist': 'keep_session', 'sessionId': a.sessionId};
      }
      kept = null;
      return {'persist': 'forget_session'};
    }).toList();
  };
}

Map<String, Object?> verificationRender(VerificationScreen screen) => {
      'render': screen.content,
      if (screen is VerificationCouldNotStart) 'failure': screen.failure.name,
      if (screen is VerificationConfirming && screen.landingHint != null) 'landingHint': screen.landingHint,
      if (screen is VerificationSettled) 'status': screen.status,
    };

Runner verificationRunner(Map<String, dynamic> config) {
  final machine = VerificationMachine(config['workflow'] as String,
      VerificationReturnParser((config['registered'] as List).cast<String>()), pollingOf(config));
  return (e) {
    final VerificationEvent input;
    switch (e['type']) {
      case 'verify_tap':
        input = VerificationVerifyTapEvent(at(e));
      case 'handoff_created':
        input = VerificationHandoffCreatedEvent(SensitiveUrl(e['url'] as String));
      case 'handoff_failed':
        input = VerificationHandoffFailedEvent(failureOf(e['failure']));
      case 'return_link':
        input = VerificationReturnLinkEvent(e['url'] as String, at(e));
      case 'web_view_return':
        input = VerificationWebViewReturnEvent(e['url'] as String, at(e));
      case 'browser_closed':
        input = VerificationBrowserClosedEvent(at(e));
      case 'status':
        input = VerificationStatusEvent(e['status'] as String, at(e));
      case 'status_failed':
        input = VerificationStatusFailedEvent(failureOf(e['failure']), at(e));
      case 'background':
        input = const VerificationBackgroundEvent();
      case 'foreground':
        input = VerificationForegroundEvent(at(e));
      case 'restore':
        input = VerificationRestoreEvent(at(e));
      case 'tick':
        input = VerificationTickEvent(at(e));
      default:
        throw StateError('unknown verification event ${e['type']}');
    }
    final effects = <Object?>[];
    for (final a in machine.handle(input)) {
      if (a is VerificationRenderAction) effects.add(verificationRender(a.screen));
      if (a is VerificationRequestHandoffAction) {
        effects.add({'request': 'POST /v2/verification-handoffs', 'workflow': a.workflow});
      }
      if (a is VerificationPresentCameraWebViewAction) effects.add({'navigate': 'camera_web_view', 'url': a.url.reveal()});
      if (a is VerificationFetchStatusAction) effects.add({'request': 'GET /v2/verifications/${a.workflow}'});
      if (a is VerificationScheduleTickAction) effects.add({'tick': rfc3339(a.at)});
      // Closing the web view is the presenter's side of ending the browser phase (not in the vocabulary).
    }
    return effects;
  };
}

String? checkInteraction(Map<String, dynamic> c, Map<String, dynamic> cards) {
  final config = c['config'] as Map<String, dynamic>;
  final run = c['flow'] == 'chia'
      ? chiaRunner(config, cards)
      : (c['flow'] == 'verification' ? verificationRunner(config) : connectRunner(config));
  final steps = c['steps'] as List;
  for (var index = 0; index < steps.length; index++) {
    final step = steps[index] as Map<String, dynamic>;
    final effects = run(step['event'] as Map<String, dynamic>);
    if (!jsonEqual(effects, step['expect'])) return 'step $index ${jsonEncode(step['event'])}: got ${jsonEncode(effects)}';
  }
  return null;
}

Map<String, Object?> routeJson(LinkRoute route) => route.flow == null
    ? {'flow': null, 'reason': route.reason}
    : {'flow': route.flow!.name, if (route.flow != LinkFlow.chia) 'landing': route.landing};

void main() {
  group('link-routing.v1.json', () {
    final document = load('link-routing.v1.json');
    final registration = document['registration'] as Map<String, dynamic>;
    BatonLinkRouter router(bool generic) => BatonLinkRouter.registered(
          bb: (registration['bb'] as List).cast<String>(),
          privue: (registration['privue'] as List).cast<String>(),
          genericReturnHost: generic ? registration['genericReturnHost'] as String : null,
        );
    for (final c in (document['cases'] as List).cast<Map<String, dynamic>>()) {
      test(c['id'] as String, () {
        final actual = routeJson(router(c['genericReturnApproved'] != false).route(c['url'] as String));
        expect(jsonEqual(actual, c['expect']), isTrue, reason: 'got ${jsonEncode(actual)}');
      });
    }
    test('a URL registered for both BB and Privue is refused', () {
      expect(
          () => BatonLinkRouter.registered(
              bb: ['https://app.example.com/return'], privue: ['https://APP.example.com:443/return?x=1']),
          throwsA(isA<ReturnUrlRegistrationError>()
              .having((e) => e.code, 'code', 'registered_for_two_flows')));
    });
  });
  group('return-links.v1.json', () {
    for (final c in (load('return-links.v1.json')['cases'] as List).cast<Map<String, dynamic>>()) {
      test(c['id'] as String, () => expect(checkReturnLink(c), isNull));
    }
  });
  group('retry-classification.v1.json', () {
    final document = load('retry-classification.v1.json');
    final now = DateTime.parse(document['now'] as String);
    for (final c in (document['cases'] as List).cast<Map<String, dynamic>>()) {
      test(c['id'] as String, () => expect(checkRetry(c, now), isNull));
    }
  });
  group('interaction.v1.json', () {
    final document = load('interaction.v1.json');
    final cards = document['cards'] as Map<String, dynamic>;
    for (final c in (document['cases'] as List).cast<Map<String, dynamic>>()) {
      test(c['id'] as String, () => expect(checkInteraction(c, cards), isNull));
    }
  });
}
