/**
 * The Test Explorer tree (extension/testing/testTree.ts) and run targeting (runTargets.ts), without
 * VS Code: over fakeTestController (a test double of VS Code's testing API) and a CaseIndex whose
 * discovery is a table of configs. What is checked is what a person sees in the Testing view and which
 * configs and cases a Run with items picked and excluded sends to the CLI.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { CaseIndex } from '../../extension/testing/caseIndex';
import { targetsOf } from '../../extension/testing/runTargets';
import { CONFIG_GLOB, EvalTestTree } from '../../extension/testing/testTree';
import { waitFor } from '../support/waitFor';
import { fakeTestingApi, type FakeTestController, type FakeTestItem } from '../support/fakeTestController';

const ROOT = '/work-space';
const A = join(ROOT, 'a.eval.yaml');
const B = join(ROOT, 'sub', 'b.eval.yaml');
const DATASET = join(ROOT, 'cases.jsonl');

const at = (file: string, line: number) => ({
  file,
  start: { offset: 0, line, column: 0 },
  end: { offset: 0, line, column: 9 },
});

/** A workspace whose configs discovery reads from `configs` (edited by a test to play a change on disk). */
function workspace(configs: Map<string, DiscoveredConfig>) {
  const reads: string[] = [];
  const index = new CaseIndex((configFile) => {
    reads.push(configFile);
    const found = configs.get(configFile);
    return Promise.resolve(found ?? { configFile, cases: [], reaches: [], problem: '1:1: no such file' });
  });
  const fake = fakeTestingApi(ROOT, () => [...configs.keys()]);
  const logged: string[] = [];
  const output = { info: (m: string) => void logged.push(m), error: (m: string) => void logged.push(m) };
  const tree = new EvalTestTree(index, output as unknown as vscode.LogOutputChannel, fake.api);
  const controller = fake.controllers[0] as FakeTestController;
  return { tree, index, fake, controller, reads, logged };
}

/** The tree as the Testing view shows it: labels, nested, in display order, with errors and descriptions. */
function shown(controller: FakeTestController): string[] {
  const lines: string[] = [];
  const walk = (items: FakeTestItem[], indent: string) => {
    for (const item of items) {
      const extra = [
        item.description,
        item.error === undefined ? undefined : `error: ${String(item.error)}`,
        item.range === undefined ? undefined : `line ${item.range.start.line}`,
      ].filter((x) => x !== undefined);
      lines.push(`${indent}${item.label}${extra.length === 0 ? '' : ` (${extra.join('; ')})`}`);
      walk(item.children.sorted(), `${indent}  `);
    }
  };
  walk(controller.items.sorted(), '');
  return lines;
}

function twoConfigs(): Map<string, DiscoveredConfig> {
  return new Map<string, DiscoveredConfig>([
    [
      A,
      {
        configFile: A,
        datasetFile: DATASET,
        reaches: [],
        target: false,
        cases: [
          { id: 'zeta', range: at(DATASET, 0) },
          { id: 'alpha', range: at(DATASET, 1) },
          { id: 'bad', range: at(DATASET, 2), readError: 'not JSON' },
        ],
      },
    ],
    [B, { configFile: B, reaches: [], cases: [{ id: 'only', range: at(B, 4) }] }],
  ]);
}

const item = (controller: FakeTestController, file: string, caseId?: string): FakeTestItem => {
  const config = controller.items.get(`file://${file}`);
  assert.ok(config !== undefined, `no item for ${file}`);
  if (caseId === undefined) return config;
  const found = config.children.get(`file://${file}#${caseId}`);
  assert.ok(found !== undefined, `no item for ${file}#${caseId}`);
  return found;
};

describe('the Test Explorer tree', () => {
  it('lists the configs findFiles gives when the Testing view first asks, with their cases in dataset order', async () => {
    const { controller, fake } = workspace(twoConfigs());
    assert.deepEqual(shown(controller), [], 'nothing is searched before the Testing view asks');
    assert.deepEqual(fake.searches, []);
    await controller.resolveHandler?.(undefined);
    assert.deepEqual(fake.searches, [CONFIG_GLOB]);
    assert.deepEqual(shown(controller), [
      'a.eval.yaml',
      '  zeta (line 0)',
      '  alpha (line 1)',
      '  bad (unreadable record; line 2)',
      'sub/b.eval.yaml',
      '  only (line 4)',
    ]);
    assert.equal(item(controller, A).canResolveChildren, false);
  });

  it('shows why a config could not be read on its item', async () => {
    const configs = new Map<string, DiscoveredConfig>([
      [A, { configFile: A, reaches: [], cases: [], problem: '3:5: unknown scorer "exact_mach"' }],
    ]);
    const { controller } = workspace(configs);
    await controller.resolveHandler?.(undefined);
    assert.deepEqual(shown(controller), ['a.eval.yaml (error: a.eval.yaml:3:5: unknown scorer "exact_mach")']);
  });

  it('keeps a case id exact and escapes its label', async () => {
    const id = 'evil\u202Eid';
    const { controller } = workspace(new Map([[A, { configFile: A, reaches: [], cases: [{ id, range: at(A, 0) }] }]]));
    await controller.resolveHandler?.(undefined);
    const child = item(controller, A, id);
    assert.equal(child.id, `file://${A}#${id}`);
    assert.doesNotMatch(child.label, /\u202E/);
  });

  it('follows configs created and deleted on disk, and a change to the dataset a config reads', async () => {
    const configs = twoConfigs();
    const { controller, fake, reads } = workspace(configs);
    await controller.resolveHandler?.(undefined);
    const configWatcher = fake.watchers.find((w) => w.pattern === CONFIG_GLOB);
    assert.ok(configWatcher !== undefined);
    const datasetWatcher = fake.watchers.find((w) => w.file === DATASET && !w.disposed);
    assert.ok(datasetWatcher !== undefined, 'the dataset a config reads is watched');

    // The dataset changes: the config that reads it is read again, and its new cases show.
    configs.set(A, {
      configFile: A,
      datasetFile: DATASET,
      reaches: [],
      target: false,
      cases: [{ id: 'new', range: at(DATASET, 0) }],
    });
    const before = reads.length;
    datasetWatcher.fire('change', DATASET);
    await waitFor(() => shown(controller).includes('  new (line 0)'), 'the new case of a.eval.yaml');
    assert.deepEqual(reads.slice(before), [A]);

    // A new config appears; the deleted one goes, and its dataset is no longer watched.
    const C = join(ROOT, 'c.eval.yaml');
    configs.set(C, { configFile: C, reaches: [], cases: [{ id: 'c1', range: at(C, 0) }] });
    configWatcher.fire('create', C);
    await waitFor(() => shown(controller).includes('c.eval.yaml'), 'c.eval.yaml in the tree');
    configWatcher.fire('delete', A);
    assert.deepEqual(shown(controller), ['c.eval.yaml', '  c1 (line 0)', 'sub/b.eval.yaml', '  only (line 4)']);
    assert.equal(datasetWatcher.disposed, true);
  });

  it('creates a case item from a run event when the tree does not have it yet', async () => {
    const { tree, controller } = workspace(new Map([[A, { configFile: A, reaches: [], cases: [] }]]));
    assert.equal(tree.caseItem(A, 'late'), undefined, 'without a range nothing is made up');
    const made = tree.caseItem(A, 'late', at(A, 7));
    assert.equal(made?.id, `file://${A}#late`);
    assert.deepEqual(shown(controller), ['a.eval.yaml', '  late (line 7)']);
  });

  it('disposes its controller and watchers', async () => {
    const { tree, controller, fake } = workspace(twoConfigs());
    await controller.resolveHandler?.(undefined);
    tree.dispose();
    assert.equal(controller.disposed, true);
    assert.ok(fake.watchers.every((w) => w.disposed));
  });
});

describe('run targeting', () => {
  async function targets(
    include: (c: FakeTestController) => FakeTestItem[] | undefined,
    exclude: (c: FakeTestController) => FakeTestItem[] = () => [],
  ) {
    const { tree, controller } = workspace(twoConfigs());
    await controller.resolveHandler?.(undefined);
    const found = await targetsOf({ include: include(controller), exclude: exclude(controller) }, tree, (uri) =>
      fileURLToPath(uri),
    );
    return Object.fromEntries([...found].map(([file, ids]) => [file, ids === undefined ? 'all' : [...ids].sort()]));
  }

  it('runs every config whole when nothing is picked', async () => {
    assert.deepEqual(await targets(() => undefined), { [A]: 'all', [B]: 'all' });
  });
  it('runs a picked config whole, and without the cases excluded from it', async () => {
    assert.deepEqual(await targets((c) => [item(c, A)]), { [A]: 'all' });
    assert.deepEqual(
      await targets(
        (c) => [item(c, A)],
        (c) => [item(c, A, 'alpha')],
      ),
      { [A]: ['bad', 'zeta'] },
    );
  });
  it('runs picked cases only, a whole config winning over its own cases', async () => {
    assert.deepEqual(await targets((c) => [item(c, A, 'zeta'), item(c, A, 'alpha'), item(c, B, 'only')]), {
      [A]: ['alpha', 'zeta'],
      [B]: ['only'],
    });
    assert.deepEqual(await targets((c) => [item(c, A), item(c, A, 'zeta')]), { [A]: 'all' });
    assert.deepEqual(await targets((c) => [item(c, A, 'zeta'), item(c, A)]), { [A]: 'all' });
  });
  it('runs nothing of an excluded config, nor an excluded case picked', async () => {
    assert.deepEqual(
      await targets(
        () => undefined,
        (c) => [item(c, B)],
      ),
      { [A]: 'all' },
    );
    assert.deepEqual(
      await targets(
        (c) => [item(c, A, 'zeta')],
        (c) => [item(c, A, 'zeta')],
      ),
      {},
    );
  });
  it('finds the config of a case item that arrives without its parent from its id', async () => {
    const { tree, controller } = workspace(twoConfigs());
    await controller.resolveHandler?.(undefined);
    const orphan = controller.createTestItem(`file://${B}#only`, 'only', undefined);
    const found = await targetsOf({ include: [orphan], exclude: [] }, tree, (uri) => fileURLToPath(uri));
    assert.deepEqual([...found], [[B, new Set(['only'])]]);
  });
});
