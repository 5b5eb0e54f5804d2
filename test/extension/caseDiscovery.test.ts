/** Listing a config's cases through the real CLI (`validate --cases`), as the Test Explorer does. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BatchedDiscovery, discoverCases, type DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { parseCaseList } from '../../protocol/caseList';
import { CLI, ensureBuilt, ROOT } from '../support/cli';

let dir: string;
before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-ext-cases-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function discoverOne(cli: string, configFile: string): Promise<DiscoveredConfig> {
  const [found] = await discoverCases(cli, [configFile], ROOT);
  assert.ok(found !== undefined);
  return found;
}

describe('discoverCases', () => {
  it('lists the quick start cases with their dataset lines, in file order', async () => {
    const config = join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml');
    const found = await discoverOne(CLI, config);
    assert.equal(found.problem, undefined);
    assert.equal(found.configFile, config);
    assert.equal(found.datasetFile, join(ROOT, 'examples', 'quickstart', 'refunds.jsonl'));
    assert.deepEqual(
      found.cases.map((c) => [c.id, c.range.start.line]),
      [
        ['refund-window', 0],
        ['refund-method', 1],
        ['damaged-item', 2],
        ['sale-items', 3],
      ],
    );
    assert.deepEqual(found.reaches, []);
    assert.equal(found.target, false);
  });

  it('lists the NL2SQL example from its EvalBench dataset', async () => {
    const found = await discoverOne(CLI, join(ROOT, 'examples', 'nl2sql', 'shop.eval.yaml'));
    assert.equal(found.problem, undefined);
    assert.equal(found.cases.length, 12);
    assert.ok(found.cases.every((c) => c.range.file === join(ROOT, 'examples', 'nl2sql', 'prompts.json')));
  });

  it('keeps a malformed JSONL line as a case that cannot be read, at its line', async () => {
    const found = await discoverOne(CLI, join(ROOT, 'test', 'fixtures', 'cli', 'malformed-line.eval.yaml'));
    const broken = found.cases.find((c) => c.readError !== undefined);
    assert.equal(broken?.range.start.line, 1);
    assert.deepEqual(
      found.cases.filter((c) => c.readError === undefined).map((c) => c.id),
      ['first', 'third'],
    );
  });

  it('lists inline cases at their lines in the config, and what the scorers reach', async () => {
    const config = join(ROOT, 'test', 'fixtures', 'extension', 'exact-and-subprocess.eval.yaml');
    const found = await discoverOne(CLI, config);
    assert.deepEqual(
      found.cases.map((c) => [c.id, c.range.file, c.range.start.line]),
      [
        ['same', config, 3],
        ['different', config, 6],
      ],
    );
    assert.deepEqual(found.reaches, ['workspace-code']);
  });

  it('says where a broken config is broken instead of listing cases', async () => {
    const config = join(dir, 'broken.eval.yaml');
    writeFileSync(config, 'cases:\n  - id: a\n    output: x\nscorers:\n  exact_matchh: {}\n');
    const found = await discoverOne(CLI, config);
    assert.deepEqual(found.cases, []);
    assert.match(found.problem ?? '', /^5:3: .*exact_matchh/);
  });

  it('says when the CLI cannot be run at all', async () => {
    const found = await discoverOne(
      join(dir, 'no-such-cli.js'),
      join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'),
    );
    assert.deepEqual(found.cases, []);
    assert.match(found.problem ?? '', /Cannot find module|listing the cases failed/);
  });

  it('lists several configs with one process, each with its own answer', async () => {
    const broken = join(dir, 'also-broken.eval.yaml');
    writeFileSync(broken, 'scorers: [\n');
    const batched = new BatchedDiscovery(CLI, ROOT);
    const configs = [
      join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'),
      broken,
      join(ROOT, 'examples', 'agent', 'support-agent.eval.yaml'),
    ];
    const found = await Promise.all(configs.map((file) => batched.discover(file)));
    assert.deepEqual(
      found.map((f) => f.configFile),
      configs,
    );
    assert.deepEqual(
      found.map((f) => f.cases.length),
      [4, 0, 5],
    );
    assert.match(found[1]?.problem ?? '', /^\d+:\d+: /);
  });

  it('reads only a well-formed list', () => {
    assert.equal(parseCaseList('not json'), undefined);
    assert.equal(parseCaseList('{"configFile":"/a","cases":[{"id":1}],"reaches":[]}'), undefined);
    assert.deepEqual(parseCaseList('{"configFile":"/a","cases":[],"reaches":["network",3]}'), {
      configFile: '/a',
      cases: [],
      reaches: ['network'],
    });
  });
});
