import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseHash, inShard, parseShardLabel, shardLabel, shardOf } from '../../../core/runner/shard';

describe('shardOf: a stable hash of the case id', () => {
  it('gives the values an independent implementation gives (FNV-1a over UTF-8, then MurmurHash3 fmix32)', () => {
    // Computed with a few lines of Python (Python integers, not JavaScript's), so these pin the
    // algorithm, not this code: a case lands in the same shard on every machine and every version.
    assert.equal(caseHash('case-1'), 2580863451);
    assert.equal(caseHash('c000001'), 3722794031);
    assert.equal(caseHash('refund-01'), 1938809365);
    assert.equal(caseHash('日本語'), 3932500114);
    assert.equal(caseHash(''), 2872998923);
    assert.deepEqual(
      ['case-1', 'c000001', 'refund-01', '日本語', ''].map((id) => shardOf(id, 3)),
      [0, 2, 1, 1, 2],
    );
  });

  it('puts every case in exactly one shard', () => {
    for (let i = 0; i < 1000; i++) {
      const id = `case-${i}`;
      assert.equal([0, 1, 2, 3].filter((index) => inShard(id, { index, count: 4 })).length, 1);
    }
  });

  it('balances 100,000 sequential ids within 3% of an even split for 2 to 16 shards', () => {
    for (const count of [2, 3, 5, 7, 16]) {
      const sizes = new Array<number>(count).fill(0);
      for (let i = 0; i < 100_000; i++) {
        const shard = shardOf(`c${String(i).padStart(6, '0')}`, count);
        sizes[shard] = (sizes[shard] ?? 0) + 1;
      }
      const even = 100_000 / count;
      for (const size of sizes) assert.ok(Math.abs(size - even) / even < 0.03, `${count} shards: ${sizes.join(', ')}`);
    }
  });
});

describe('parseShardLabel: one-based i/n', () => {
  it('reads 1/3 … 3/3 as zero-based indexes and writes them back', () => {
    assert.deepEqual(parseShardLabel('1/3'), { index: 0, count: 3 });
    assert.deepEqual(parseShardLabel('3/3'), { index: 2, count: 3 });
    assert.equal(shardLabel({ index: 1, count: 3 }), '2/3');
  });

  it('refuses 0/3, 4/3, 1/0 and text, saying why', () => {
    assert.match(parseShardLabel('0/3') as string, /one-based .* from 1 to 3; got 0 .*--shard-index/);
    assert.match(parseShardLabel('4/3') as string, /from 1 to 3; got 4$/);
    assert.match(parseShardLabel('1/0') as string, /shard count must be from 1/);
    assert.match(parseShardLabel('two of three') as string, /expected i\/n/);
  });
});
