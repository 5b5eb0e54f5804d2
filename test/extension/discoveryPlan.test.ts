/**
 * The plan from discovery's listing (extension/runner/discoveryPlan.ts) is the CLI's own plan: over the
 * real CLI's `validate <config>… --cases` listing, planFromDiscovery gives exactly what `evallens plan
 * --json` prints, for every config under examples/ and for configs with LLM judges (per-case judge
 * counts, a scorer that compares trials, a record that cannot be read), with a selection of ids and a
 * trials override. Nothing here opens a socket to the judges.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCaseList, type CaseList } from '../../protocol/caseList';
import { planFromDiscovery, type PlanSelection } from '../../extension/runner/discoveryPlan';
import { planArgs } from '../../extension/runner/cliArgs';
import { ensureBuilt, ROOT, runCli } from '../support/cli';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeOpenAiServer';

const KEY_ENV = 'EVALLENS_TEST_DISCOVERY_PLAN_KEY';
const env = { [KEY_ENV]: 'sk-discovery-plan-test' };
let work = '';
let server: FakeLlmServer;

/** Configs with judges, written in the formats the engine reads. */
function writeJudgedConfigs(dir: string, baseUrl: string): string[] {
  writeFileSync(
    join(dir, 'judge.yaml'),
    `provider: openai\nbase_url: ${baseUrl}\nmodel: test-judge\napi_key_env: ${KEY_ENV}\n`,
  );
  // Per-case counts (a rubric of 3 items, of 1, none) and a line that is not a case (listed with readError, not planned).
  const rubric = [
    { id: 'a1', input: 'q', output: 'x', metadata: { binary_rubric: ['r0', 'r1', 'r2'] } },
    { id: 'a2', input: 'q', output: 'x', metadata: { binary_rubric: ['r0'] } },
    { id: 'b1', input: 'q', output: 'x' },
  ];
  writeFileSync(
    join(dir, 'rubric.jsonl'),
    `${rubric.map((c) => JSON.stringify(c)).join('\n')}\n{"id": "broken", "input": \n`,
  );
  writeFileSync(
    join(dir, 'rubric.eval.yaml'),
    'dataset: rubric.jsonl\nnum_trials: 2\nscorers:\n  goal_completion: {model_config: judge.yaml}\n  binary_rubric_scorer: {model_config: judge.yaml}\n  contains: {value: x}\n',
  );
  // A scorer that compares the trials (one call per case, whatever the trials), beside per-trial ones.
  const trials = [
    { id: 'c1', input: 'What is 2+2?', trials: [{ output: 'four' }, { output: 'five' }, { output: '4' }] },
    { id: 'c2', input: 'And 3+3?', trials: [{ output: 'six' }, { output: '6' }, { output: 'six' }] },
  ];
  writeFileSync(
    join(dir, 'trials.eval.yaml'),
    `num_trials: 3\nscorers:\n  llm_consistency: {model_config: judge.yaml}\n  goal_completion: {model_config: judge.yaml}\n  exact_match_consistency: {}\ncases: ${JSON.stringify(trials)}\n`,
  );
  return [join(dir, 'rubric.eval.yaml'), join(dir, 'trials.eval.yaml')];
}

function exampleConfigs(): string[] {
  const examples = join(ROOT, 'examples');
  return readdirSync(examples, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.eval.yaml'))
    .sort()
    .map((path) => join(examples, path));
}

async function listings(configs: readonly string[], cwd: string): Promise<Map<string, CaseList>> {
  const run = await runCli(['validate', ...configs, '--cases'], { cwd, env, limitMs: 120_000 });
  const lists = new Map<string, CaseList>();
  for (const line of run.stdout.split('\n')) {
    const list = line.trim() === '' ? undefined : parseCaseList(line);
    if (list !== undefined) lists.set(list.configFile, list);
  }
  return lists;
}

/** The CLI's own plan for the selection, as the extension's fallback asks for it; undefined when it refuses. */
async function cliPlan(configFile: string, selection: PlanSelection, cwd: string): Promise<unknown> {
  const run = await runCli(
    planArgs({
      configFile,
      caseIds: selection.caseIds ?? [],
      ...(selection.trials === undefined ? {} : { trials: selection.trials }),
    }),
    { cwd, env, limitMs: 60_000 },
  );
  if (run.code !== 0) return undefined;
  // The estimate of tokens and cost is the CLI's alone (it renders the prompts); the confirmation fetches it.
  const { estimate: _estimate, ...plan } = JSON.parse(run.stdout) as { estimate?: unknown };
  return plan;
}

async function assertSamePlans(
  configs: readonly string[],
  selections: (list: CaseList) => PlanSelection[],
  cwd: string,
): Promise<number> {
  const lists = await listings(configs, cwd);
  let compared = 0;
  for (const configFile of configs) {
    const list = lists.get(configFile);
    assert.ok(list !== undefined, `no listing for ${configFile}`);
    for (const selection of selections(list)) {
      const expected = await cliPlan(configFile, selection, cwd);
      const actual = planFromDiscovery(list, selection);
      assert.deepEqual(actual, expected, `${configFile} ${JSON.stringify(selection)}`);
      if (expected !== undefined) compared++;
    }
  }
  return compared;
}

before(async () => {
  ensureBuilt();
  server = await startFakeLlmServer();
  work = mkdtempSync(join(tmpdir(), 'evallens-discovery-plan-'));
});

after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('planFromDiscovery over the CLI listing is the CLI plan', () => {
  it('for every config under examples/, whole and with one case and --trials 2', async () => {
    const configs = exampleConfigs();
    assert.ok(configs.length >= 5, 'the examples are found');
    const compared = await assertSamePlans(
      configs,
      (list) => [{}, { caseIds: list.cases.slice(0, 1).map((c) => c.id), trials: 2 }],
      ROOT,
    );
    assert.ok(compared >= configs.length, 'the CLI planned each example');
  });

  it('for configs with judges: per-case rubric counts, a scorer comparing trials, an unreadable record, selections and trials overrides', async () => {
    const configs = writeJudgedConfigs(work, server.openAiBaseUrl);
    const compared = await assertSamePlans(
      configs,
      (list) => [
        {},
        { caseIds: list.cases.slice(0, 2).map((c) => c.id) },
        { trials: 4 },
        { caseIds: [list.cases[1]?.id ?? ''], trials: 2 },
      ],
      work,
    );
    assert.equal(compared, 8);
    const lists = await listings(configs, work);
    // Not vacuous: the plans count judge calls, per case (goal_completion 1, the rubric 3, 1 and none) and once per case for llm_consistency.
    assert.deepEqual(
      [
        planFromDiscovery(lists.get(configs[0] ?? '') as CaseList)?.judgeCalls,
        planFromDiscovery(lists.get(configs[1] ?? '') as CaseList, { trials: 4 })?.judgeCalls,
      ],
      [(3 + (3 + 1 + 0)) * 2, 2 + 2 * 4],
    );
    assert.equal(server.connections(), 0);
  });

  it('gives no plan for a listing without one (an older CLI) or for a config that did not load', () => {
    const range = {
      file: '/w/a.jsonl',
      start: { offset: 0, line: 0, column: 0 },
      end: { offset: 1, line: 0, column: 1 },
    };
    assert.equal(
      planFromDiscovery({ configFile: '/w/a.eval.yaml', cases: [{ id: 'a', range }], reaches: [], target: false }),
      undefined,
    );
    assert.equal(
      planFromDiscovery({ configFile: '/w/a.eval.yaml', cases: [], reaches: [], problem: '1:1: expected a mapping' }),
      undefined,
    );
  });
});
