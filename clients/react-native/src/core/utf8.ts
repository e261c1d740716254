/**
 * UTF-8 without `TextEncoder`/`TextDecoder`: Hermes ships those only from React Native 0.85, so the package carries
 * its own. Both follow the WHATWG Encoding Standard: encoding turns a lone surrogate into U+FFFD (as `TextEncoder`
 * does), decoding is "UTF-8 decode without BOM" — a leading U+FEFF is kept, each maximal ill-formed subpart becomes
 * one U+FFFD (as `new TextDecoder('utf-8', { ignoreBOM: true })` does).
 */

/** The UTF-8 bytes of `text`. */
export function utf8Encode(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      } else {
        code = 0xfffd;
      }
    } else if (code >= 0xd800 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return out;
}

/** WHATWG "UTF-8 decode without BOM" of `bytes`: the BOM stays, ill-formed input becomes U+FFFD, never a throw. */
export function utf8DecodeWithoutBOM(bytes: ArrayLike<number>): string {
  const codes: number[] = [];
  let needed = 0;
  let seen = 0;
  let code = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i];
    if (needed === 0) {
      i += 1;
      if (byte <= 0x7f) codes.push(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) {
        needed = 1;
        code = byte & 0x1f;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2;
        code = byte & 0xf;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3;
        code = byte & 0x7;
      } else codes.push(0xfffd);
      continue;
    }
    if (byte < lower || byte > upper) {
      // The byte is not consumed: it starts the next sequence (maximal subpart replacement).
      code = needed = seen = 0;
      lower = 0x80;
      upper = 0xbf;
      codes.push(0xfffd);
      continue;
    }
    i += 1;
    lower = 0x80;
    upper = 0xbf;
    code = (code << 6) | (byte & 0x3f);
    seen += 1;
    if (seen === needed) {
      codes.push(code);
      code = needed = seen = 0;
    }
  }
  if (needed !== 0) codes.push(0xfffd);
  let text = '';
  for (let start = 0; start < codes.length; start += 4096) {
    text += String.fromCodePoint(...codes.slice(start, start + 4096));
  }
  return text;
}
