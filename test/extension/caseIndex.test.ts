import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { CaseIndex } from '../../extension/testing/caseIndex';
import { lineRangeOf } from './events';

/** A discovery whose answers the test releases one at a time, to order reads and changes exactly. */
function controlledDiscovery() {
  const pending: { configFile: string; answer: (config: DiscoveredConfig) => void }[] = [];
  const discover = (configFile: string) =>
    new Promise<DiscoveredConfig>((answer) => pending.push({ configFile, answer }));
  return { discover, pending };
}

const listing = (configFile: string, ids: string[], datasetFile = '/data/cases.jsonl'): DiscoveredConfig => ({
  configFile,
  datasetFile,
  reaches: [],
  cases: ids.map((id, i) => ({ id, range: lineRangeOf(i, datasetFile) })),
});

describe('CaseIndex', () => {
  it('reads a config once for concurrent askers and again when it changed during the read', async () => {
    const { discover, pending } = controlledDiscovery();
    const index = new CaseIndex(discover);
    const seen: string[][] = [];
    index.onDidChange((c) => seen.push('removed' in c ? ['removed'] : c.cases.map((x) => x.id)));
    const first = index.ensure('/a.eval.yaml');
    const second = index.refresh('/a.eval.yaml');
    assert.equal(pending.length, 1, 'one read for both');
    pending[0]?.answer(listing('/a.eval.yaml', ['old']));
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(pending.length, 2, 'the change during the read asked for a second read');
    pending[1]?.answer(listing('/a.eval.yaml', ['new']));
    assert.deepEqual(
      (await first).cases.map((c) => c.id),
      ['new'],
    );
    assert.deepEqual(
      (await second).cases.map((c) => c.id),
      ['new'],
    );
    assert.deepEqual(seen, [['new']], 'listeners hear the settled list only');
  });

  it('knows which configs read a file and which cases live in it', async () => {
    const index = new CaseIndex(async (configFile) =>
      listing(
        configFile,
        configFile === '/a.eval.yaml' ? ['x', 'y'] : ['z'],
        configFile === '/c.eval.yaml' ? '/other.jsonl' : '/data/cases.jsonl',
      ),
    );
    await Promise.all(['/a.eval.yaml', '/b.eval.yaml', '/c.eval.yaml'].map((f) => index.ensure(f)));
    assert.deepEqual(index.configsReading('/data/cases.jsonl').sort(), ['/a.eval.yaml', '/b.eval.yaml']);
    assert.deepEqual(index.configsReading('/c.eval.yaml'), ['/c.eval.yaml']);
    assert.deepEqual(index.sitesInFile('/data/cases.jsonl'), [
      { configFile: '/a.eval.yaml', caseId: 'x', line: 0 },
      { configFile: '/a.eval.yaml', caseId: 'y', line: 1 },
      { configFile: '/b.eval.yaml', caseId: 'z', line: 0 },
    ]);
    index.remove('/a.eval.yaml');
    assert.deepEqual(index.configsReading('/data/cases.jsonl'), ['/b.eval.yaml']);
  });

  it('does not bring back a config removed while it was being read', async () => {
    const { discover, pending } = controlledDiscovery();
    const index = new CaseIndex(discover);
    const read = index.ensure('/a.eval.yaml');
    index.remove('/a.eval.yaml');
    pending[0]?.answer(listing('/a.eval.yaml', ['x']));
    await read;
    assert.equal(index.has('/a.eval.yaml'), false);
  });
});
