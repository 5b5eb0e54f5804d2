// The run's heap policy (cli/heapGrowth.ts): set after start-up, V8 must honour it, or a long run's
// resident size creeps up with its length again (issue 18 item 5). Two child processes do the same
// work — a live set, and objects that live long enough to be promoted and then die, as a run's
// results waiting for a database do — one with the policy, one without; the old generation's
// largest size is compared. Sizes, not times.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const MODULE = resolve(__dirname, '../../cli/heapGrowth.ts');

const churn = (withPolicy: boolean): number => {
  const script = `
    ${withPolicy ? `require(${JSON.stringify(MODULE)}).collectSooner();` : ''}
    const v8 = require('node:v8');
    const live = [];
    for (let i = 0; i < 200000; i++) live.push({ id: 'k' + i, v: [i] });
    const ring = new Array(50000);
    let peak = 0;
    for (let i = 0; i < 1000000; i++) {
      ring[i % ring.length] = { id: 'case-' + i, rows: [i, i * 2, 'x'.repeat(20)] };
      if (i % 5000 === 0)
        peak = Math.max(peak, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size);
    }
    process.stdout.write(String(peak + live.length * 0));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return Number(child.stdout);
};

describe('the heap growth policy of run and merge', () => {
  it('keeps the old generation closer to the live set than V8 does by default', () => {
    const without = churn(false);
    const withPolicy = churn(true);
    assert.ok(without > 0 && withPolicy > 0);
    assert.ok(
      withPolicy < without * 0.8,
      `old space peaked at ${withPolicy} bytes with the policy and ${without} without; expected well below`,
    );
  });
});
