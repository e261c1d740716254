// The installable package: `npm pack --dry-run` lists exactly what an app needs (package.json, README, LICENSE, for each
// source module its compiled JavaScript and declarations) — no tests, stubs, scripts or sources — and the manifest's
// entry points exist and export the public API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'fs';
import { join } from 'path';

const packageDir = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

function sourceModules(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceModules(full, `${prefix}${entry}/`));
    else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) out.push(prefix + entry.replace(/\.tsx?$/, ''));
  }
  return out;
}

test('npm pack --dry-run lists exactly package.json, README.md, LICENSE and dist/<module>.js + .d.ts for every source module', () => {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: join(packageDir, 'build', '.npm-cache'), npm_config_update_notifier: 'false' },
    cwd: packageDir,
    timeout: 60000,
  });
  assert.equal(run.status, 0, run.stderr.slice(0, 2000));
  const listed = (JSON.parse(run.stdout)[0].files as Array<{ path: string }>).map((f) => f.path).sort();
  const expected = ['LICENSE', 'README.md', 'package.json'];
  for (const module of sourceModules(join(packageDir, 'src'))) expected.push(`dist/${module}.js`, `dist/${module}.d.ts`);
  assert.deepEqual(listed, expected.sort());
});

test('the manifest: name, version, entry points that exist, react and react-native as peers, browser libraries optional', () => {
  assert.equal(manifest.name, '@baton/react-native');
  assert.equal(manifest.version, readFileSync(join(packageDir, '..', '..', 'VERSION'), 'utf8').trim(), 'package.json mirrors VERSION');
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(manifest.main, 'dist/index.js');
  assert.equal(manifest.types, 'dist/index.d.ts');
  assert.ok(existsSync(join(packageDir, manifest.main)));
  assert.ok(existsSync(join(packageDir, manifest.types)));
  assert.deepEqual(Object.keys(manifest.peerDependencies).sort(), [
    'expo-web-browser', 'react', 'react-native', 'react-native-inappbrowser-reborn', 'react-native-webview',
  ]);
  for (const optional of ['expo-web-browser', 'react-native-inappbrowser-reborn', 'react-native-webview']) {
    assert.deepEqual(manifest.peerDependenciesMeta[optional], { optional: true });
  }
  assert.equal(manifest.peerDependenciesMeta.react, undefined);
  assert.equal(manifest.dependencies, undefined, 'no runtime dependencies of our own');
});

test('dist/index.js (what an app imports) exports the public API', () => {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const api = require(join(packageDir, 'dist', 'index.js'));
  for (const name of [
    'useChiaHandoff', 'useVerification', 'useBankConnect', 'FetchBackendClient', 'createBackendClient', 'SensitiveUrl',
    'BackendError', 'CatalogCardView', 'ChiaHandoffController', 'VerificationController', 'BankConnectController',
    'signOut', 'storageKeys', 'createLinkRouter', 'BatonLinkRouter', 'useLinkRouter', 'uuidV4', 'DEVELOPMENT_URL_POLICY', 'PRODUCTION_URL_POLICY',
  ]) {
    assert.ok(name in api, `${name} missing from dist/index.js`);
  }
});

test('dist/ requires only react and react-native: an optional peer the app did not install is never imported', () => {
  const required = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.js')) for (const match of readFileSync(full, 'utf8').match(/require\("[^".][^"]*"\)/g) ?? []) required.add(match.slice(9, -2));
    }
  };
  walk(join(packageDir, 'dist'));
  assert.deepEqual([...required].sort(), ['react', 'react-native']);
});
