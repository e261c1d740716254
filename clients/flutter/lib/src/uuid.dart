// A random UUIDv4 for the share's Idempotency-Key, from the platform's cryptographically secure source.
import 'dart:math';

final Random _secure = Random.secure();

/// A fresh random UUIDv4, canonical lowercase form.
String newUuidV4([Random? random]) {
  final source = random ?? _secure;
  final bytes = List<int>.generate(16, (_) => source.nextInt(256));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  final hex = bytes.map((b) => b.toRadixString(16).padLeft(2, '0')).join();
  return '${hex.substring(0, 8)}-${hex.substring(8, 12)}-${hex.substring(12, 16)}-'
      '${hex.substring(16, 20)}-${hex.substring(20)}';
}
