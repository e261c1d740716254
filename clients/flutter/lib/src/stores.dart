// Where flow state survives a restart (the React Native package's BatonStorage, STORAGE_KEYS and signOut): the
// Chia share's key and body, BB's pending session id. Never a journey URL.
import 'dart:convert';

import 'retry.dart';

/// A small string key-value store the SDK keeps its state in; `shared_preferences` fits this shape.
abstract class BatonStorage {
  Future<String?> getItem(String key);
  Future<void> setItem(String key, String value);
  Future<void> removeItem(String key);
}

/// The two storage keys of one user.
class BatonStorageKeys {
  const BatonStorageKeys(this.chiaPendingAttempt, this.bbPendingSession);

  /// Chia's pending share attempt (key and body, never a URL).
  final String chiaPendingAttempt;

  /// BB's pending session id (never the hosted URL).
  final String bbPendingSession;
}

/// The storage keys of [userId] (docs/CONTRACTS.md §1.3; Swift `BatonUserData`'s per-user folder, the React Native
/// package's `storageKeys`): `baton.user.u<hex>.chia.pendingAttempt` and `baton.user.u<hex>.bb.pendingSession`,
/// `<hex>` the id's UTF-8 bytes in lowercase hex. Hex has no `.`, so no id's keys can be another's.
BatonStorageKeys storageKeys(String userId) {
  final hex = utf8.encode(userId).map((byte) => byte.toRadixString(16).padLeft(2, '0')).join();
  final prefix = 'baton.user.u$hex';
  return BatonStorageKeys('$prefix.chia.pendingAttempt', '$prefix.bb.pendingSession');
}

/// In memory only: lost with the process. Give the configuration a durable [BatonStorage] in a real app.
class MemoryBatonStorage implements BatonStorage {
  final Map<String, String> _items = {};

  @override
  Future<String?> getItem(String key) async {
    return _items[key];
  }

  @override
  Future<void> setItem(String key, String value) async {
    _items[key] = value;
  }

  @override
  Future<void> removeItem(String key) async {
    _items.remove(key);
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
PendingAttempt? decodePendingAttempt(String? text) {
  if (text == null) return null;
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

/// A failure the app hears about besides the screen (the screen always shows where the flow ended).
class BatonFlowFailure {
  const BatonFlowFailure(this.flow, this.code);

  /// `chia`, `privue` or `bb`.
  final String flow;

  /// `browser_failed_to_open`, `browser_failed`, `attempt_not_persisted` or `storage_failed`.
  final String code;

  @override
  bool operator ==(Object other) => other is BatonFlowFailure && other.flow == flow && other.code == code;

  @override
  int get hashCode => Object.hash(flow, code);

  @override
  String toString() => 'BatonFlowFailure($flow, $code)';
}
