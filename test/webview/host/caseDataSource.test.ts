import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CaseDataSource } from '../../../extension/results/caseDataSource';

const dir = mkdtempSync(join(tmpdir(), 'evallens-cases-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, 'agent.eval.yaml');
const records = [
  { id: 'plain', input: 'q', output: '<img src=x onerror=alert(1)>', expected: 'fine' },
  { id: 'agent', input: 'book', output: 'done', trace: { steps: [{ type: 'tool_call', name: 'search', arguments: { q: 'flights' } }] } },
  { id: 'bad-trace', output: 'x', trace: { something: 1 } },
];
writeFileSync(join(dir, 'cases.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"id": broken\n`);
writeFileSync(config, 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');

describe('case data for the detail pane (host)', () => {
  it('reads a case from the config\'s dataset as the runner does', async () => {
    const found = await new CaseDataSource({}).lookup(config, 'plain');
    assert.deepEqual(found, { ok: true, data: { id: 'plain', input: 'q', output: '<img src=x onerror=alert(1)>', expected: 'fine' } });
  });

  it('normalizes the trace into steps, or says why it cannot', async () => {
    const source = new CaseDataSource({});
    const agent = await source.lookup(config, 'agent');
    assert.ok(agent.ok);
    assert.equal(agent.data.traceSteps?.[0]?.kind, 'tool_call');
    const bad = await source.lookup(config, 'bad-trace');
    assert.ok(bad.ok);
    assert.equal(bad.data.traceSteps, undefined);
    assert.match(bad.data.traceProblem ?? '', /the trace is an object with none of steps/);
  });

  it('says why a case is unavailable: not in the dataset, an unreadable record, a config that does not load', async () => {
    const source = new CaseDataSource({});
    const missing = await source.lookup(config, 'nobody');
    assert.deepEqual(missing, { ok: false, reason: `no case "nobody" in ${join(dir, 'cases.jsonl')} now (the dataset may have changed since the run)` });
    const broken = await source.lookup(config, 'line-4');
    assert.ok(!broken.ok);
    assert.match(broken.reason, new RegExp(`the dataset record at ${join(dir, 'cases.jsonl')}:4:\\d+ could not be read: line 4 is not valid JSON`));
    const ci = await source.lookup('/home/ci/project/evals/support.eval.yaml', 'grounded');
    assert.ok(!ci.ok);
    assert.match(ci.reason, /^the run config could not be loaded \(\/home\/ci\/project\/evals\/support\.eval\.yaml:1:1: /);
  });

  it('serves cases given up front without reading the dataset', async () => {
    const source = new CaseDataSource({});
    source.add('/nowhere.eval.yaml', [{ id: 'given', output: 'kept' }]);
    assert.deepEqual(await source.lookup('/nowhere.eval.yaml', 'given'), { ok: true, data: { id: 'given', output: 'kept' } });
  });
});
