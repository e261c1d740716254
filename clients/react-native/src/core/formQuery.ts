/**
 * WHATWG `application/x-www-form-urlencoded` reading, as BatonCore's `FormURLEncodedQuery` does it: split on `&`
 * (empty pieces skipped), split each piece at its first `=`, `+` is a space, percent-decode exactly once over the
 * UTF-8 bytes (a `%` not followed by two hex digits stays literally), then WHATWG "UTF-8 decode without BOM": a
 * leading U+FEFF is kept (as Swift and Kotlin read it) and bytes that are not UTF-8 become U+FFFD. No global
 * `TextEncoder`/`TextDecoder` is used: Hermes before React Native 0.85 has none.
 */
import { utf8DecodeWithoutBOM, utf8Encode } from './utf8';

function hex(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

/** `+` to space, then one pass of percent-decoding; malformed escapes stay as written. */
export function decodeFormComponent(text: string): string {
  if (!text.includes('+') && !text.includes('%')) return text;
  const bytes = utf8Encode(text);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b === 0x2b) {
      out.push(0x20);
      i += 1;
    } else if (b === 0x25 && i + 2 < bytes.length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
      out.push(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
      i += 3;
    } else {
      out.push(b);
      i += 1;
    }
  }
  return utf8DecodeWithoutBOM(out);
}

/** The decoded value of the first field called `name` (exact, case-sensitive), or null. */
export function firstField(name: string, query: string): string | null {
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const rawName = equals >= 0 ? piece.slice(0, equals) : piece;
    if (decodeFormComponent(rawName) === name) return equals >= 0 ? decodeFormComponent(piece.slice(equals + 1)) : '';
  }
  return null;
}

/** As `firstField`, but null when the value is empty too. */
export function firstNonEmptyField(name: string, query: string): string | null {
  const value = firstField(name, query);
  return value === null || value === '' ? null : value;
}
