// systemScheduler over setTimeout and Date.now: a timer that fires a little early (timers run on a monotonic clock,
// Date.now on the wall clock) must not deliver a tick before its time — the machines ignore such a tick, and a
// Retry-After wait would never end. Seen in the journey walk: "timed out waiting for share enabled again".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemScheduler } from '../src/configuration';

test('systemScheduler re-arms a timer that fires before Date.now() reaches its time; cancel stops it', () => {
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const realNow = Date.now;
  let now = 0;
  const armed: Array<{ delay: number; callback: () => void; cleared: boolean }> = [];
  try {
    Date.now = () => now;
    (globalThis as { setTimeout: unknown }).setTimeout = (callback: () => void, delay: number) => {
      const timer = { delay, callback, cleared: false };
      armed.push(timer);
      return timer;
    };
    (globalThis as { clearTimeout: unknown }).clearTimeout = (timer: { cleared: boolean }) => {
      timer.cleared = true;
    };
    let fired = 0;
    systemScheduler.schedule(1000, () => (fired += 1));
    assert.equal(armed[0].delay, 1000);
    now = 999; // the timer fires 1 ms early by the wall clock
    armed[0].callback();
    assert.equal(fired, 0, 'fired before its time');
    assert.equal(armed.length, 2, 'not re-armed');
    assert.equal(armed[1].delay, 1);
    now = 1000;
    armed[1].callback();
    assert.equal(fired, 1);
    const cancel = systemScheduler.schedule(5000, () => (fired += 1));
    cancel();
    assert.equal(armed[2].cleared, true);
    now = 6000;
    armed[2].callback();
    assert.equal(fired, 1, 'a cancelled timer fired');
  } finally {
    Date.now = realNow;
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  }
});
