/**
 * UUIDv4 `Idempotency-Key`s without relying on a global Hermes may lack. `crypto.randomUUID()` does not exist in
 * Hermes; `crypto.getRandomValues` exists only once a polyfill such as `react-native-get-random-values` is imported.
 * A key must be unique, not secret (it names one share attempt to the partner backend, which already knows the
 * user), so without `getRandomValues` the bytes come from `Math.random` mixed with the clock and a counter.
 */

/** Fills `bytes` with random values (the shape of `crypto.getRandomValues`). */
export type RandomFill = (bytes: Uint8Array) => void;

let counter = 0;

function fallbackFill(bytes: Uint8Array): void {
  counter = (counter + 1) >>> 0;
  const now = Date.now();
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = (Math.floor(Math.random() * 256) ^ (now / 2 ** (8 * (i % 5))) ^ (counter >>> (8 * (i % 4)))) & 0xff;
  }
}

/** The platform's `crypto.getRandomValues` when one is installed, else the fallback; looked up at call time. */
export function defaultRandomFill(): RandomFill {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  const getRandomValues = crypto?.getRandomValues;
  return typeof getRandomValues === 'function' ? (bytes) => void getRandomValues.call(crypto, bytes) : fallbackFill;
}

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i + 0x100).toString(16).slice(1));

/** A canonical lowercase UUIDv4 (RFC 9562 §5.4) from `fill` (default: `defaultRandomFill()`). */
export function uuidV4(fill: RandomFill = defaultRandomFill()): string {
  const b = new Uint8Array(16);
  fill(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (byte) => HEX[byte]);
  return `${h.slice(0, 4).join('')}-${h.slice(4, 6).join('')}-${h.slice(6, 8).join('')}-${h.slice(8, 10).join('')}-${h.slice(10).join('')}`;
}
