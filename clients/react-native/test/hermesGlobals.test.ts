// Hermes (before React Native 0.85) has no TextDecoder/TextEncoder, and no crypto or full URL without polyfills:
// every module of the package must load and run with those globals deleted. The run happens in a child node
// process whose globals are removed before the first module loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'child_process';
import { join } from 'path';

// The shipped modules: dist/, what package.json's main points at.
const buildSrc = join(__dirname, '..', '..', 'dist');

const script = `
for (const name of ['TextDecoder', 'TextEncoder', 'crypto', 'URL', 'URLSearchParams']) {
  delete globalThis[name];
  if (name in globalThis) throw new Error(name + ' still defined');
}
const fs = require('fs');
const path = require('path');
const root = ${JSON.stringify(buildSrc)};
const loaded = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (fs.statSync(full).isDirectory()) walk(full);
    else if (entry.endsWith('.js')) { require(full); loaded.push(path.relative(root, full)); }
  }
})(root);
const forms = require(path.join(root, 'core/formQuery.js'));
const links = require(path.join(root, 'core/returnLinks.js'));
const out = {
  loaded,
  bom: forms.firstField('sessionId', 'sessionId=%EF%BB%BF'),
  accented: forms.firstField('a', 'a=%C3%A9+x'),
  connect: new links.ConnectReturnParser(['https://app.example/bb']).parse('https://app.example/bb?sessionId=s1&resultCode=Ok'),
};
const uuidPath = path.join(root, 'core/uuid.js');
if (fs.existsSync(uuidPath)) {
  const { uuidV4 } = require(uuidPath);
  out.keys = [uuidV4(), uuidV4()];
}
const api = require(path.join(root, 'index.js'));
const client = new api.FetchBackendClient({
  baseUrl: 'https://partner.example',
  tokenProvider: () => 'token',
  transport: async (request) => ({ status: 201, header: () => null, body: JSON.stringify({ url: 'https://chia.example/h/phs_1', seen: request.url }) }),
});
client.createHandoffSession({ key: api.uuidV4(), catalogItemId: 'i/1', disclosureVersion: 'd', affirmedAt: '2026-01-01T00:00:00Z' }).then((session) => {
  out.handoff = [String(session.url), session.url.reveal()];
  const parser = new api.VerificationReturnParser(['https://app.example.com/kyc/done']);
  out.verification = parser.parse('https://app.example.com/kyc/done?verification_id=%C3%A9&status=approved');
  out.segment = api.encodePathSegment('a b/é');
  process.stdout.write(JSON.stringify(out));
});
`;

test('every module loads and runs with TextDecoder, TextEncoder, crypto and URL deleted from globalThis', () => {
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env }, timeout: 30000 });
  assert.equal(run.status, 0, run.stderr.split('\n').slice(0, 8).join('\n'));
  const out = JSON.parse(run.stdout);
  assert.ok(out.loaded.includes('index.js'), `index.js not among ${out.loaded.join(', ')}`);
  assert.equal(out.bom, '\uFEFF');
  assert.equal(out.accented, '\u00E9 x');
  assert.deepEqual(out.connect, { accepted: true, value: { sessionId: 's1', resultCode: 'Ok', connectionId: null, error: null } });
  assert.equal(out.keys.length, 2);
  for (const key of out.keys) assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(out.keys[0], out.keys[1]);
  assert.deepEqual(out.handoff, ['<journey URL redacted>', 'https://chia.example/h/phs_1']);
  assert.deepEqual(out.verification, { accepted: true, value: { verificationId: '\u00E9', statusHint: 'approved' } });
  assert.equal(out.segment, 'a%20b%2F%C3%A9');
});
