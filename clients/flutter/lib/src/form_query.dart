// WHATWG application/x-www-form-urlencoded reading (docs/CONTRACTS.md §1), transcribed from
// clients/react-native/src/core/formQuery.ts, with its byte-order-mark fix: a leading U+FEFF is kept, as WHATWG's
// "UTF-8 decode without BOM" and the Swift and Kotlin shells keep it.
import 'dart:convert';

int _hex(int byte) {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/// `+` to space, then one pass of percent-decoding over the UTF-8 bytes; malformed escapes stay as written and bytes
/// that are not UTF-8 become U+FFFD.
String decodeFormComponent(String text) {
  if (!text.contains('+') && !text.contains('%')) return text;
  final bytes = utf8.encode(text);
  final out = <int>[];
  var i = 0;
  while (i < bytes.length) {
    final b = bytes[i];
    if (b == 0x2b) {
      out.add(0x20);
      i += 1;
    } else if (b == 0x25 && i + 2 < bytes.length && _hex(bytes[i + 1]) >= 0 && _hex(bytes[i + 2]) >= 0) {
      out.add(_hex(bytes[i + 1]) * 16 + _hex(bytes[i + 2]));
      i += 3;
    } else {
      out.add(b);
      i += 1;
    }
  }
  // Decode without BOM stripping whatever the decoder's default: a leading EF BB BF is U+FEFF, kept.
  if (out.length >= 3 && out[0] == 0xef && out[1] == 0xbb && out[2] == 0xbf) {
    return '\uFEFF${const Utf8Decoder(allowMalformed: true).convert(out.sublist(3))}';
  }
  return const Utf8Decoder(allowMalformed: true).convert(out);
}

/// The decoded value of the first field called [name] (exact, case-sensitive), or null.
String? firstField(String name, String query) {
  for (final piece in query.split('&')) {
    if (piece.isEmpty) continue;
    final equals = piece.indexOf('=');
    final rawName = equals >= 0 ? piece.substring(0, equals) : piece;
    if (decodeFormComponent(rawName) == name) return equals >= 0 ? decodeFormComponent(piece.substring(equals + 1)) : '';
  }
  return null;
}

/// As [firstField], but null when the value is empty too.
String? firstNonEmptyField(String name, String query) {
  final value = firstField(name, query);
  return value == null || value.isEmpty ? null : value;
}
