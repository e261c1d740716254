// One device, two users (docs/CONTRACTS.md §1.3; Swift BatonUserDataTests): what one user's flows kept never reaches
// the next user's, and signOut clears that user's keys only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatonConfiguration, signOut, storageKeys } from '../src/configuration';
import { createBankConnect, createChiaHandoff } from '../src/flows';
import { shareCard } from './fixtures';
import { configuration, ManualScheduler, MemoryStorage, ScriptedBackend, settle } from './support';

const JOURNEY = 'https://chia.example/h/phs_secret';

function forUser(backend: ScriptedBackend, storage: MemoryStorage, userId: string): BatonConfiguration {
  return { ...configuration(backend, storage, new ManualScheduler()), userId };
}

test("another user's restore never resends the first user's uncertain share: B's share carries B's key", async () => {
  const storage = new MemoryStorage();
  const shares: number[] = [503, 201];
  const backend = new ScriptedBackend((request, path) => {
    if (path === '/v2/catalog') return { status: 200, body: { items: [shareCard] } };
    if (path === '/v2/handoff-sessions') {
      const status = shares.shift() ?? 500;
      return status === 201 ? { status, body: { url: JOURNEY, expiresAt: '2026-01-01T00:10:00Z' } } : { status, body: { code: 'unavailable' } };
    }
    return undefined;
  });
  const opened: string[] = [];
  const alice = createChiaHandoff(forUser(backend, storage, 'alice'), shareCard.id, { openExternal: (url) => void opened.push(url.reveal()) }, () => undefined);
  await alice.start();
  alice.controller.callToActionTapped();
  await settle();
  alice.controller.shareTapped();
  await settle();
  assert.equal(alice.controller.screen.notice, 'share_uncertain');
  alice.controller.stop();
  const aliceKey = backend.sent[backend.sent.length - 1].headers['Idempotency-Key'];
  assert.ok(aliceKey !== undefined && storage.items.size === 1, 'alice\'s attempt is kept for her restore');

  // Bob signs in on the same device (same storage) without the app having called signOut.
  const bob = createChiaHandoff(forUser(backend, storage, 'bob'), shareCard.id, { openExternal: (url) => void opened.push(url.reveal()) }, () => undefined);
  await bob.start();
  await settle();
  assert.equal(bob.controller.screen.notice, null, "bob's restore finds nothing of alice's");
  bob.controller.callToActionTapped();
  await settle();
  bob.controller.shareTapped();
  await settle();
  const keys = backend.sent.filter((r) => r.url.endsWith('/v2/handoff-sessions')).map((r) => r.headers['Idempotency-Key']);
  assert.equal(keys.length, 2);
  assert.equal(keys[0], aliceKey);
  assert.notEqual(keys[1], aliceKey, "bob's share carries his own key, never alice's");
  assert.deepEqual(opened, [JOURNEY]);
  bob.controller.stop();
});

test("a cold start never confirms another user's BB session", async () => {
  const storage = new MemoryStorage();
  const backend = new ScriptedBackend((request, path) =>
    path.startsWith('/v2/connect/sessions/') ? { status: 200, body: { sessionId: 's1', status: 'connected' } } : undefined,
  );
  await storage.setItem(storageKeys('alice').bbPendingSession, 's1');
  const adapter = { openAuthSession: async () => ({ kind: 'cancelled' as const }) };
  const bob = createBankConnect(forUser(backend, storage, 'bob'), adapter, true, () => undefined);
  await bob.restore();
  await settle();
  assert.deepEqual(backend.requests, [], "bob's restore asks nothing about alice's session");
  bob.stop();
});

test('signOut forgets the attempt and the session of that user only, erases the journey web data, and may run twice', async () => {
  const storage = new MemoryStorage();
  for (const user of ['alice', 'bob']) {
    await storage.setItem(storageKeys(user).chiaPendingAttempt, '{"key":"k"}');
    await storage.setItem(storageKeys(user).bbPendingSession, 's1');
  }
  let erased = 0;
  const journeyWebData = { eraseJourneyWebData: async () => void (erased += 1) };
  await signOut({ storage, userId: 'alice' }, { journeyWebData });
  assert.deepEqual([...storage.items.keys()].sort(), [storageKeys('bob').bbPendingSession, storageKeys('bob').chiaPendingAttempt].sort());
  assert.equal(erased, 1);
  await signOut({ storage, userId: 'alice' }, { journeyWebData });
  assert.equal(erased, 2);
  assert.equal(storage.items.size, 2);
});

test('signOut erases the web data even when the storage fails, then reports the failure', async () => {
  const failing = new MemoryStorage();
  failing.removeItem = async () => {
    throw new Error('disk full');
  };
  let erased = 0;
  await assert.rejects(signOut({ storage: failing, userId: 'alice' }, { journeyWebData: { eraseJourneyWebData: async () => void (erased += 1) } }), /disk full/);
  assert.equal(erased, 1);
});

test('every user id gets keys of its own, none a prefix of another user\'s', () => {
  const ids = ['', '.', '..', 'a', 'a.', 'a.b', 'ab', 'b', 'ü', 'u', 'baton.chia', 'x'.repeat(300), 'x'.repeat(299), 'alice', 'ALICE'];
  const all = ids.map((id) => storageKeys(id));
  for (const [i, keys] of all.entries()) {
    assert.notEqual(keys.chiaPendingAttempt, keys.bbPendingSession);
    for (const key of [keys.chiaPendingAttempt, keys.bbPendingSession]) assert.match(key, /^baton\.user\.u[0-9a-f]*\.(chia|bb)\.[A-Za-z]+$/);
    for (const [j, other] of all.entries()) {
      if (i === j) continue;
      for (const key of [other.chiaPendingAttempt, other.bbPendingSession]) {
        assert.ok(key !== keys.chiaPendingAttempt && key !== keys.bbPendingSession, `${ids[i]} / ${ids[j]}`);
      }
    }
  }
});
