// Where flow state survives a restart: the Chia share's key and body, BB's pending session id. Never a journey URL.
import 'dart:convert';

import 'retry.dart';

/// Keeps the one pending Chia share attempt (body + key) until a success or a definitive refusal.
abstract class PendingAttemptStore {
  Future<PendingAttempt?> load();
  Future<void> save(PendingAttempt attempt);
  Future<void> remove();
}

/// Keeps BB's pending session id while a flow waits on it.
abstract class PendingSessionStore {
  Future<String?> load();
  Future<void> save(String sessionId);
  Future<void> remove();
}

/// In memory only: lost with the process. Give the configuration a durable store (for example over
/// shared_preferences, with [encodePendingAttempt] / [decodePendingAttempt]) in a real app.
class MemoryPendingAttemptStore implements PendingAttemptStore {
  PendingAttempt? _attempt;

  @override
  Future<PendingAttempt?> load() async => _attempt;

  @override
  Future<void> save(PendingAttempt attempt) async {
    _attempt = attempt;
  }

  @override
  Future<void> remove() async {
    _attempt = null;
  }
}

/// In memory only: lost with the process.
class MemoryPendingSessionStore implements PendingSessionStore {
  String? _id;

  @override
  Future<String?> load() async => _id;

  @override
  Future<void> save(String sessionId) async {
    _id = sessionId;
  }

  @override
  Future<void> remove() async {
    _id = null;
  }
}

/// The attempt as stored text: its four members, nothing else.
String encodePendingAttempt(PendingAttempt attempt) => jsonEncode({
      'affirmedAt': attempt.affirmedAt,
      'catalogItemId': attempt.catalogItemId,
      'disclosureVersion': attempt.disclosureVersion,
      'key': attempt.key,
    });

/// The attempt read back, or null when [text] is not one (a damaged store starts over).
PendingAttempt? decodePendingAttempt(String text) {
  try {
    final json = jsonDecode(text);
    if (json is! Map) return null;
    final key = json['key'];
    final item = json['catalogItemId'];
    final version = json['disclosureVersion'];
    final at = json['affirmedAt'];
    if (key is! String || item is! String || version is! String || at is! String) return null;
    if (!isIdempotencyKey(key)) return null;
    return PendingAttempt(key, item, version, at);
  } on FormatException {
    return null;
  }
}
