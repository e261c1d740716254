import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCase, sharedCases } from './vectors';

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
