import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CaseDataSource } from '../../../extension/results/caseDataSource';
import { CLI, ensureBuilt } from '../../support/cli';

const dir = mkdtempSync(join(tmpdir(), 'evallens-cases-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, 'agent.eval.yaml');
const records = [
  { id: 'plain', input: 'q', output: '<img src=x onerror=alert(1)>', expected: 'fine' },
  {
    id: 'agent',
    input: 'book',
    output: 'done',
    trace: { steps: [{ type: 'tool_call', name: 'search', arguments: { q: 'flights' } }] },
  },
  { id: 'bad-trace', output: 'x', trace: { something: 1 } },
];
writeFileSync(join(dir, 'cases.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"id": broken\n`);
writeFileSync(config, 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');

before(() => ensureBuilt());

/** The source as the results panel makes it: the built CLI reads the case, trusted unless said. */
const sourceOf = (trusted = true) => new CaseDataSource(CLI, () => trusted);

describe('case data for the detail pane (host, through the CLI)', () => {
  it("reads a case from the config's dataset as the runner does", async () => {
    const found = await sourceOf().lookup(config, 'plain');
    assert.deepEqual(found, {
      ok: true,
      data: { id: 'plain', input: 'q', output: '<img src=x onerror=alert(1)>', expected: 'fine' },
    });
  });

  it('normalizes the trace into steps, or says why it cannot', async () => {
    const source = sourceOf();
    const agent = await source.lookup(config, 'agent');
    assert.ok(agent.ok);
    assert.equal(agent.data.traceSteps?.[0]?.kind, 'tool_call');
    const bad = await source.lookup(config, 'bad-trace');
    assert.ok(bad.ok);
    assert.equal(bad.data.traceSteps, undefined);
    assert.match(bad.data.traceProblem ?? '', /the trace is an object with none of steps/);
  });

  it('says why a case is unavailable: not in the dataset, an unreadable record, a config that does not load', async () => {
    const source = sourceOf();
    const missing = await source.lookup(config, 'nobody');
    assert.deepEqual(missing, {
      ok: false,
      reason: `no case "nobody" in ${join(dir, 'cases.jsonl')} now (the dataset may have changed since the run)`,
    });
    const broken = await source.lookup(config, 'line-4');
    assert.ok(!broken.ok);
    assert.match(
      broken.reason,
      new RegExp(
        `the dataset record at ${join(dir, 'cases.jsonl')}:4:\\d+ could not be read: line 4 is not valid JSON`,
      ),
    );
    const ci = await source.lookup('/home/ci/project/evals/support.eval.yaml', 'grounded');
    assert.ok(!ci.ok);
    assert.match(
      ci.reason,
      /^the run config could not be loaded \(\/home\/ci\/project\/evals\/support\.eval\.yaml:1:1: /,
    );
  });

  it('in Restricted Mode reads the config without the environment (the CLI is called with --untrusted)', async () => {
    const envConfig = join(dir, 'env.eval.yaml');
    writeFileSync(envConfig, 'dataset: ${EVALLENS_THINEXT_CASES}\nscorers:\n  exact_match: {}\n');
    process.env['EVALLENS_THINEXT_CASES'] = join(dir, 'cases.jsonl');
    try {
      const trusted = await sourceOf(true).lookup(envConfig, 'plain');
      assert.ok(trusted.ok, trusted.ok ? '' : trusted.reason);
      const untrusted = await sourceOf(false).lookup(envConfig, 'plain');
      assert.ok(!untrusted.ok, 'the variable naming the dataset is not read in Restricted Mode');
    } finally {
      delete process.env['EVALLENS_THINEXT_CASES'];
    }
  });

  it('says why when the CLI cannot be started', async () => {
    const found = await new CaseDataSource(join(dir, 'no-cli.js'), () => true).lookup(config, 'plain');
    assert.ok(!found.ok);
    assert.match(found.reason, /reading the case failed \(exit code 1\)/);
  });

  it('serves cases given up front without reading the dataset', async () => {
    const source = sourceOf();
    source.add('/nowhere.eval.yaml', [{ id: 'given', output: 'kept' }]);
    assert.deepEqual(await source.lookup('/nowhere.eval.yaml', 'given'), {
      ok: true,
      data: { id: 'given', output: 'kept' },
    });
  });
});
