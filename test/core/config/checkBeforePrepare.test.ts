/**
 * Checking a config is separate from preparing its scorers (issue 14 item 5): parsing (what the
 * language server does on every keystroke, and `evallens validate`) calls each scorer's `check` and
 * never its `create`; a run creates the scorers it will call. And each host's engine context keeps
 * its own compiled validators, regex verdicts and schemas: two contexts share no entry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { BoundedCache } from '../../../core/boundedCache';
import { createEngineContext } from '../../../core/engineContext';
import { pass } from '../../../core/result';
import { runEval } from '../../../core/runner/run';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';
import { ScorerRegistry } from '../../../core/scorers/registry';
import { prepared, type ScorerDefinition } from '../../../core/scorers/scorer';

const FILE = '/virtual/check.eval.yaml';

/** A test scorer that counts its checks and its creates; its `create` throws unless allowed (standing for one that starts a process). */
function spyScorer(key: string, options: { reaches?: 'workspace-code'; issue?: string; notice?: string } = {}) {
  const calls = { check: 0, create: 0, createAllowed: false };
  const definition: ScorerDefinition = {
    key,
    origin: 'EvalLens',
    scale: { kind: 'bounded', max: 1 },
    schema: { type: 'object', properties: { limit: { type: 'number' } } },
    ...(options.reaches === undefined ? {} : { reaches: options.reaches }),
    check() {
      calls.check++;
      if (options.issue !== undefined) return { ok: false, issues: [{ path: ['limit'], message: options.issue }] };
      return options.notice === undefined
        ? { ok: true }
        : { ok: true, notices: [{ path: ['limit'], message: options.notice }] };
    },
    create() {
      calls.create++;
      if (!calls.createAllowed) throw new Error(`${key}: create was called while the config was only checked`);
      return prepared({ score: () => pass('scored') });
    },
  };
  return { definition, calls };
}

function registryWith(...definitions: ScorerDefinition[]): ScorerRegistry {
  return new ScorerRegistry([...BUILTIN_SCORERS, ...definitions]);
}

async function* records(...ids: string[]): AsyncIterable<DatasetRecord> {
  let index = 0;
  for (const id of ids) {
    yield {
      ok: true,
      value: {
        case: { id, output: 'x' },
        index,
        range: { file: FILE, start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } },
      },
    };
    index++;
  }
}

describe('checking a config builds no scorer', () => {
  it('parses a config with check only: create, which would start something, is never called', () => {
    const spy = spyScorer('starts_things', { notice: 'a notice from check' });
    const parsed = parseRunConfig(
      'cases: []\nscorers:\n  starts_things: {limit: 3}\n',
      FILE,
      {},
      { registry: registryWith(spy.definition) },
    );
    assert.deepEqual(
      parsed.problems.map((p) => [p.code, p.severity, p.message]),
      [['scorer-notice', 'information', 'starts_things: a notice from check']],
    );
    assert.ok(parsed.config);
    assert.deepEqual({ check: spy.calls.check, create: spy.calls.create }, { check: 1, create: 0 });
  });

  it("shows check's issues as the diagnostics create's refusals were, on the option's value", () => {
    const spy = spyScorer('refuses', { issue: 'the limit is too low' });
    const parsed = parseRunConfig(
      'cases: []\nscorers:\n  refuses: {limit: 3}\n',
      FILE,
      {},
      { registry: registryWith(spy.definition) },
    );
    const [problem] = parsed.problems;
    assert.equal(problem?.code, 'invalid-option');
    assert.equal(problem?.message, 'refuses: the limit is too low');
    assert.deepEqual([problem?.range.start.line, problem?.range.start.column], [2, 19]);
    assert.equal(spy.calls.create, 0);
  });

  it("reports a built-in scorer's regex safety verdict without creating it", () => {
    const regex = BUILTIN_SCORERS.find((d) => d.key === 'regex');
    assert.ok(regex);
    const neverCreated: ScorerDefinition = {
      ...regex,
      create: () => assert.fail('regex.create was called while the config was only checked'),
    };
    const parsed = parseRunConfig(
      "cases: []\nscorers:\n  regex: {pattern: '^(a+)+$'}\n",
      FILE,
      {},
      { registry: registryWith(neverCreated) },
    );
    const [problem] = parsed.problems;
    assert.equal(problem?.code, 'invalid-option');
    assert.match(problem?.message ?? '', /^regex: the pattern can backtrack catastrophically/);
  });

  it('creates each scorer once when a run starts, and scores with it', async () => {
    const spy = spyScorer('runs');
    const parsed = parseRunConfig(
      'cases: []\nscorers:\n  runs: {}\n',
      FILE,
      {},
      { registry: registryWith(spy.definition) },
    );
    assert.ok(parsed.config);
    spy.calls.createAllowed = true;
    const outcome = await runEval(parsed.config, records('a', 'b'), {
      runId: 'r',
      onEvent: () => undefined,
      concurrency: 1,
    });
    assert.equal(outcome.summary.passed, 2);
    assert.deepEqual({ check: spy.calls.check, create: spy.calls.create }, { check: 1, create: 1 });
  });

  it('an untrusted run does not create a scorer that runs workspace code', async () => {
    const spy = spyScorer('workspace_code', { reaches: 'workspace-code' });
    const parsed = parseRunConfig(
      'cases: []\nscorers:\n  workspace_code: {}\n',
      FILE,
      {},
      { registry: registryWith(spy.definition) },
    );
    assert.ok(parsed.config);
    const outcome = await runEval(parsed.config, records('a'), {
      runId: 'r',
      onEvent: () => undefined,
      trusted: false,
    });
    assert.equal(outcome.summary.skipped, 1);
    assert.equal(spy.calls.create, 0);
  });
});

describe('engine contexts', () => {
  const CONFIG =
    "cases: []\nscorers:\n  regex: {pattern: '^ctx-\\d+$'}\n  json_schema: {schema: {type: object, properties: {n: {type: string, pattern: '^[a-z]+$'}}}}\n";

  it("keep each host's validators, regex verdicts and compiled schemas to themselves", () => {
    const first = createEngineContext();
    const second = createEngineContext();
    assert.deepEqual(parseRunConfig(CONFIG, FILE, {}, { engine: first }).problems, []);
    assert.equal(first.regexVerdicts.size, 2);
    assert.equal(first.compiledSchemas.size, 1);
    assert.ok(first.validators.topLevel);
    // Nothing the first parse kept is seen by the second context…
    assert.deepEqual(
      [second.regexVerdicts.size, second.compiledSchemas.size, second.validators.topLevel, second.scorerSets.size],
      [0, 0, undefined, 0],
    );
    assert.deepEqual(parseRunConfig(CONFIG, FILE, {}, { engine: second }).problems, []);
    // …which then compiles its own.
    assert.equal(second.regexVerdicts.size, 2);
    assert.notEqual(second.validators.topLevel, first.validators.topLevel);
    assert.notEqual(second.scorerSets.get('evallens'), first.scorerSets.get('evallens'));
  });

  it('bounds every cache: past its capacity the least recently used entry goes', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, undefined, 3, 2]);
    const context = createEngineContext();
    for (const cache of [
      context.regexVerdicts,
      context.compiledSchemas,
      context.prompts,
      context.rateLimiters,
      context.googleAuths,
    ]) {
      assert.ok(Number.isFinite(cache.capacity) && cache.capacity > 0);
    }
  });
});
