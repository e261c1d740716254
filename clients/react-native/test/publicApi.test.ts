// Every name a module of the package exports is either part of the public API (exported by src/index.ts, which the
// Flutter shell mirrors by name) or listed here as internal, so a new public type cannot be left out of the index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const dist = join(__dirname, '..', '..', 'dist');

/** Internal helpers: used across modules, not part of the app-facing API. */
const INTERNAL = new Set([
  'BackendResponseDecoding', 'decodeFormComponent', 'firstField', 'firstNonEmptyField', 'PollSchedule', 'RawUrl',
  'asciiLowercase', 'defaultPort', 'parseRawUrl', 'effectivePort', 'effectivePath', 'isHttpsUrl', 'originOf', 'rfc3339',
  'acceptsAsSecure', 'journeyUrl', 'utf8Encode', 'utf8DecodeWithoutBOM', 'defaultRandomFill', 'FlowLifecycle',
]);

function declarations(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...declarations(full));
    else if (entry.endsWith('.d.ts') && full !== join(dist, 'index.d.ts')) out.push(full);
  }
  return out;
}

test('every exported name of every module is in src/index.ts or listed as internal', () => {
  const index = readFileSync(join(dist, 'index.d.ts'), 'utf8');
  const exported = new Set<string>();
  for (const block of index.match(/export \{[^}]*\}/g) ?? []) {
    for (const name of block.slice('export {'.length, -1).split(',')) if (name.trim() !== '') exported.add(name.trim());
  }
  const missing: string[] = [];
  for (const file of declarations(dist)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.match(/^export (?:declare )?(?:function|class|const|type|interface|enum) \w+/gm) ?? []) {
      const name = match.split(' ').pop() as string;
      if (!exported.has(name) && !INTERNAL.has(name)) missing.push(`${file.slice(dist.length + 1)}: ${name}`);
    }
  }
  assert.deepEqual(missing, []);
  for (const name of ['BatonConfiguration', 'BackendClient', 'useChiaHandoff', 'useVerification', 'useBankConnect', 'ChiaScreen', 'VerificationScreen', 'ConnectScreen', 'ChiaEvent', 'VerificationEvent', 'ConnectEvent', 'SensitiveUrl']) {
    assert.ok(exported.has(name), `${name} (MOBILE-SDK.md) is not exported`);
  }
});
