import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { ScorerResult } from '../../../core/result';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';

const dir = mkdtempSync(join(tmpdir(), 'evallens-metrics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A per-case scorer and a persistent one that report metrics and no score (EvalHub's adapters' way).
writeFileSync(
  join(dir, 'once.js'),
  `process.stdin.resume(); process.stdin.on('end', () => console.log(JSON.stringify({metrics: {acc: 0.81, acc_norm: "0.78"}, primary_metric: "acc"})));`,
);
writeFileSync(
  join(dir, 'pool.js'),
  `const rl = require('node:readline').createInterface({input: process.stdin});
rl.on('line', (line) => { const {id} = JSON.parse(line); console.log(JSON.stringify({id, score: 1, metrics: {rate: 0.2}})); });`,
);

writeFileSync(
  join(dir, 'metrics.py'),
  'import json, sys\ncase = json.load(sys.stdin)\nprint(json.dumps({"metrics": [1]} if case["nl_prompt"] == "bad" else {"metrics": {"acc": 81.0, "label": "good"}}))\n',
);

async function results(yaml: string): Promise<{ byScorer: Map<string, ScorerResult>; job: number | undefined }> {
  const file = join(dir, 'metrics.eval.yaml');
  writeFileSync(file, yaml);
  const parsed = parseRunConfig(yaml, file, {});
  assert.deepEqual(
    parsed.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.ok(parsed.config);
  const found: ScorerResult[] = [];
  const outcome = await runEval(parsed.config, caseRecords(parsed.config), {
    runId: 'r',
    concurrency: 1,
    onEvent: (e) => {
      if (e.type === 'result') found.push(e.result);
    },
  });
  return { byScorer: new Map(found.map((r) => [r.scorer, r])), job: outcome.jobTest?.score };
}

describe('subprocess scorers returning metrics, judged by primary_score', () => {
  it("per case: the scorer's primary_metric, the entry's metric, and a non-numeric one", async () => {
    const { byScorer, job } = await results(`cases: [{id: c1, output: x}]
scorers:
  - {type: subprocess, name: own, cmd: node once.js, threshold: 0.5}
  - {type: subprocess, name: chosen, cmd: node once.js, primary_score: {metric: acc}, threshold: 0.9}
  - {type: subprocess, name: text, cmd: node once.js, primary_score: {metric: acc_norm}, threshold: 0.5}
`);
    const own = byScorer.get('own');
    assert.equal(own?.status, 'pass');
    assert.equal(own?.score, 0.81);
    assert.deepEqual(own?.metrics, { acc: 0.81, acc_norm: '0.78' });
    assert.equal(byScorer.get('chosen')?.status, 'fail');
    const text = byScorer.get('text');
    assert.equal(text?.status, 'inconclusive');
    assert.match(text?.reason ?? '', /no test: the primary metric "acc_norm" is a numeric-looking string/);
    // Only the two scorers with a numeric primary metric count: (0.81 + 0.81) / 2.
    assert.ok(Math.abs((job ?? 0) - 0.81) < 1e-12);
  });

  it('persistent: metrics beside score, the primary metric lower-is-better', async () => {
    const { byScorer } = await results(`cases: [{id: c1, output: x}]
scorers:
  - {type: subprocess, mode: persistent, processes: 1, cmd: node pool.js, primary_score: {metric: rate, lower_is_better: true}, threshold: 0.3}
`);
    const r = byScorer.get('subprocess');
    assert.equal(r?.status, 'pass');
    assert.equal(r?.score, 0.2);
    assert.deepEqual(r?.metrics, { rate: 0.2 });
  });

  it('a wrong key in primary_score is a config error at its place', () => {
    const yaml = `cases: [{id: c1, output: x}]\nscorers:\n  - {type: subprocess, cmd: node once.js, primary_score: {metrik: acc}}\n`;
    const parsed = parseRunConfig(yaml, join(dir, 'bad.eval.yaml'), {});
    const p = parsed.problems.find((x) => x.severity === 'error');
    assert.match(p?.message ?? '', /metrik/);
    assert.equal(p?.range.start.line, 2);
  });

  it('python_scorer: metrics instead of a score, picked by primary_score; metrics that are not a map fail', async () => {
    const { byScorer } = await results(`cases: [{id: c1, input: ok, output: x}]
scorers:
  - {type: python_scorer, scorer_name: acc, script_path: metrics.py, primary_score: {metric: acc}, threshold: 50}
  - {type: python_scorer, scorer_name: label, script_path: metrics.py, primary_score: {metric: label}}
`);
    const acc = byScorer.get('acc');
    assert.equal(acc?.status, 'pass', acc?.reason);
    assert.equal(acc?.score, 81);
    assert.deepEqual(acc?.metrics, { acc: 81, label: 'good' });
    const label = byScorer.get('label');
    assert.equal(label?.status, 'inconclusive');
    assert.match(label?.reason ?? '', /no test: the primary metric "label" is a string/);
    const bad = await results(`cases: [{id: c1, input: bad, output: x}]
scorers:
  python_scorer: {script_path: metrics.py}
`);
    const failed = bad.byScorer.get('metrics');
    assert.equal(failed?.status, 'fail');
    assert.match(
      failed?.reason ?? '',
      /^FAIL: Error processing script output: the script's "metrics" must be a map .* it is a list/,
    );
  });
});
