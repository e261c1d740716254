// uuidV4: RFC 9562 version and variant bits over any random source; crypto.getRandomValues when installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIdempotencyKey } from '../src/core/retry';
import { defaultRandomFill, uuidV4 } from '../src/core/uuid';

test('uuidV4 sets the version and variant bits over the source bytes, lowercase canonical form', () => {
  assert.equal(uuidV4((b) => b.fill(0)), '00000000-0000-4000-8000-000000000000');
  assert.equal(uuidV4((b) => b.fill(0xff)), 'ffffffff-ffff-4fff-bfff-ffffffffffff');
  assert.equal(uuidV4((b) => b.forEach((_, i) => (b[i] = i * 17))), '00112233-4455-4677-8899-aabbccddeeff');
});

test('the default source uses crypto.getRandomValues when installed, else a fallback; keys are valid and distinct', () => {
  const crypto = (globalThis as { crypto?: unknown }).crypto;
  let calls = 0;
  try {
    Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues: (a: Uint8Array) => { calls += 1; return a.fill(7); } }, configurable: true, writable: true });
    assert.equal(uuidV4(defaultRandomFill()), '07070707-0707-4707-8707-070707070707');
    assert.equal(calls, 1);
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true, writable: true });
    const keys = new Set<string>();
    for (let i = 0; i < 1000; i++) keys.add(uuidV4());
    assert.equal(keys.size, 1000);
    for (const key of keys) assert.ok(isIdempotencyKey(key), key);
  } finally {
    Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true, writable: true });
  }
});
