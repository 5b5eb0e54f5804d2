/** The console's dataset order: cases printed as every case started before them has been. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaseOrder } from '../../../cli/reporters/caseOrder';

describe('CaseOrder', () => {
  it('prints cases that end in order at once, and over the list compaction', () => {
    const order = new CaseOrder<number>();
    for (let i = 0; i < 5000; i++) order.start(i);
    for (let i = 0; i < 5000; i++) assert.deepEqual(order.end(i, i), [i]);
    assert.deepEqual(order.rest(), []);
  });

  it('holds a case that ends early until the ones started before it have ended, then prints them in order', () => {
    const order = new CaseOrder<string>();
    for (const i of [0, 1, 2, 3]) order.start(i);
    assert.deepEqual(order.end(2, 'c'), []);
    assert.deepEqual(order.end(1, 'b'), []);
    assert.deepEqual(order.end(0, 'a'), ['a', 'b', 'c']);
    // In order again after the held ones are out.
    assert.deepEqual(order.end(3, 'd'), ['d']);
  });

  it('prints a case never announced as it comes, and what is still held at the end in order', () => {
    const order = new CaseOrder<string>();
    assert.deepEqual(order.end(7, 'x'), ['x']);
    for (const i of [0, 1, 2]) order.start(i);
    assert.deepEqual(order.end(2, 'c'), []);
    assert.deepEqual(order.end(1, 'b'), []);
    assert.deepEqual(order.rest(), ['b', 'c']);
  });

  it('stops waiting for a slow case once more than 1000 others are held', () => {
    const order = new CaseOrder<number>();
    for (let i = 0; i <= 1002; i++) order.start(i);
    const printed: number[] = [];
    for (let i = 1; i <= 1002; i++) printed.push(...order.end(i, i));
    assert.deepEqual(
      printed,
      Array.from({ length: 1002 }, (_, i) => i + 1),
    );
    // The slow case, given up on, is printed when it ends.
    assert.deepEqual(order.end(0, 0), [0]);
  });
});
