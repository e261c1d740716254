import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, runCase, sharedCases } from './vectors';

for (const c of sharedCases()) {
  const name = `${c.file}#${c.section}/${c.id}`;
  if (c.run === null) {
    test(name, { skip: 'no executable check in this shell' }, () => undefined);
  } else {
    test(name, async () => {
      const [result, detail] = await runCase(c);
      assert.equal(result, 'passed', detail);
    });
  }
}

test('the conformance report carries every link-routing case (section link-routing), each with a check', () => {
  const reported = sharedCases().filter((c) => c.file === 'link-routing.v1.json');
  const ids = (load('link-routing.v1.json').cases as Array<{ id: string }>).map((c) => c.id);
  assert.deepEqual(reported.map((c) => `${c.section}/${c.id}`), ids.map((id) => `link-routing/${id}`));
  assert.ok(reported.every((c) => c.run !== null));
});
