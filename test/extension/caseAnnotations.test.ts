import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  caseLenses,
  configRunTitle,
  failureDiagnostics,
  outcomeHover,
  outcomeTitle,
  RUN_CASE_TITLE,
  timeAgo,
} from '../../extension/editor/caseAnnotations';
import { LastRuns } from '../../extension/testing/lastRuns';
import { LastResults } from '../../extension/testing/lastResults';
import { markdownHtml, tableRows, visibleText } from '../support/renderMarkdown';
import { caseEnd, DATASET, result, runStart } from './events';

const CONFIG = '/data/a.eval.yaml';

function resultsAfterRun(): LastResults {
  const last = new LastResults();
  last.record(
    CONFIG,
    caseEnd('ok', 0, 'passed', [
      result('ok', 'contains', 'pass', { score: 1 }),
      result('ok', 'similarity', 'pass', { score: 0.9 }),
    ]),
  );
  last.record(
    CONFIG,
    caseEnd('bad', 1, 'failed', [
      result('bad', 'contains', 'pass', { score: 1 }),
      result('bad', 'similarity', 'fail', { score: 0.42, reason: 'too far' }),
    ]),
  );
  return last;
}

describe('what the editor shows on a case line', () => {
  it('puts "Run case" on every case and the last result beside the ones that ran', () => {
    const last = resultsAfterRun();
    const lenses = caseLenses(
      [
        { configFile: CONFIG, caseId: 'ok', line: 0 },
        { configFile: CONFIG, caseId: 'bad', line: 1 },
        { configFile: CONFIG, caseId: 'new', line: 2 },
      ],
      (config, id) => last.get(config, id),
      () => 'a.eval.yaml',
    );
    assert.deepEqual(
      lenses.map((l) => [l.line, l.kind, l.title]),
      [
        [0, 'run-case', RUN_CASE_TITLE],
        [0, 'last-result', '✓ passed · 2 scorers'],
        [1, 'run-case', RUN_CASE_TITLE],
        [1, 'last-result', '✗ failed · similarity 0.42'],
        [2, 'run-case', RUN_CASE_TITLE],
      ],
    );
    assert.equal(RUN_CASE_TITLE, 'Run case');
  });

  it('names the config on each lens when several configs read the same file', () => {
    const lenses = caseLenses(
      [
        { configFile: '/x/one.eval.yaml', caseId: 'a', line: 0 },
        { configFile: '/x/two.eval.yaml', caseId: 'a', line: 0 },
      ],
      () => undefined,
      (config) => config.slice(3),
    );
    assert.deepEqual(
      lenses.map((l) => l.title),
      ['Run case · one', 'Run case · two'],
    );
  });

  it('keeps the lenses of two configs over one dataset short: short names, compact results', () => {
    const last = new LastResults();
    const long = '/x/support-agent-with-every-scorer.eval.yaml';
    last.record(
      long,
      caseEnd('a', 0, 'failed', [
        result('a', 'similarity', 'fail', { score: 0.42 }),
        result('a', 'contains', 'fail', { score: 0 }),
      ]),
    );
    last.record('/x/quick.eval.yaml', caseEnd('a', 0, 'passed', [result('a', 'contains', 'pass', { score: 1 })]));
    const lenses = caseLenses(
      [
        { configFile: long, caseId: 'a', line: 0 },
        { configFile: '/x/quick.eval.yaml', caseId: 'a', line: 0 },
      ],
      (config, id) => last.get(config, id),
      (config) => config.slice(3),
    );
    assert.deepEqual(
      lenses.map((l) => l.title),
      ['Run case · support-agent-wit…', '✗ similarity 0.42 · +1', 'Run case · quick', '✓ 1 scorer'],
    );
    assert.ok(lenses.map((l) => l.title).join(' | ').length < 90);
  });

  it('shortens a title with many failing scorers', () => {
    const last = new LastResults();
    last.record(
      CONFIG,
      caseEnd(
        'm',
        0,
        'failed',
        ['a', 'b', 'c', 'd', 'e'].map((s) => result('m', s, 'fail')),
      ),
    );
    const outcome = last.get(CONFIG, 'm');
    assert.ok(outcome !== undefined);
    assert.equal(outcomeTitle(outcome), '✗ failed · a · b · c · +2');
  });

  it('gives each failing case a diagnostic with its reasons on its own range, and none to passing ones', () => {
    const specs = failureDiagnostics(resultsAfterRun().inFile(DATASET));
    assert.deepEqual(specs, [
      {
        start: { line: 1, column: 0 },
        end: { line: 1, column: 50 },
        message: 'case "bad" failed: similarity failed · score 0.42: too far',
      },
    ]);
  });

  it('drops the results of a file that changed, and replaces a case result when it runs again', () => {
    const last = resultsAfterRun();
    const changed: string[][] = [];
    last.onDidChange((files) => changed.push([...files]));
    last.record(CONFIG, caseEnd('bad', 1, 'passed', [result('bad', 'similarity', 'pass', { score: 0.8 })]));
    assert.deepEqual(failureDiagnostics(last.inFile(DATASET)), []);
    assert.equal(last.inFile(DATASET).length, 2);
    last.forgetFile(DATASET);
    assert.deepEqual(last.inFile(DATASET), []);
    assert.equal(last.get(CONFIG, 'ok'), undefined);
    assert.deepEqual(changed, [[DATASET], [DATASET]]);
  });

  it('hovers every scorer result in a table, with markdown in ids and reasons shown as written', () => {
    const last = new LastResults();
    last.record(
      CONFIG,
      caseEnd('h|1', 0, 'failed', [
        result('h|1', 'contains', 'pass', { score: 1 }),
        result('h|1', 'similarity', 'fail', { score: 0.5, reason: 'use *bold* | pipes' }),
      ]),
    );
    const outcome = last.get(CONFIG, 'h|1');
    assert.ok(outcome !== undefined);
    assert.equal(
      outcomeHover(outcome, 'a.eval.yaml'),
      [
        '**EvalLens** · case `h|1` · a\\.eval\\.yaml · ✗ failed',
        '',
        '| | Scorer | Score | Reason |',
        '|---|---|---|---|',
        '| ✓ | contains | 1 | contains said pass |',
        '| ✗ | similarity | 0\\.5 | use \\*bold\\* \\| pipes |'.replace('0\\.5', '0.5'),
      ].join('\n'),
    );
  });

  for (const id of ['sale-items', 'a`b', 'back\\slash', '[x](https://example.com)', 'two\nlines', 'p|pe', '<b>x</b>']) {
    it(`shows the case id ${JSON.stringify(id)} in the hover as written`, () => {
      const last = new LastResults();
      last.record(
        CONFIG,
        caseEnd(id, 0, 'failed', [result(id, 'similarity', 'fail', { score: 0.5, reason: `${id} [is] *off*` })]),
      );
      const outcome = last.get(CONFIG, id);
      assert.ok(outcome !== undefined);
      const html = markdownHtml(outcomeHover(outcome, 'my_config.eval.yaml'));
      const header = /<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
      assert.equal(visibleText(header), `EvalLens · case ${id.replace(/\n/g, '\\n')} · my_config.eval.yaml · ✗ failed`);
      assert.deepEqual(tableRows(html), [['✗', 'similarity', '0.5', `${id.replace(/\n/g, ' ')} [is] *off*`]]);
    });
  }

  it('folds trials into one row per scorer, and names a result across trials so', () => {
    const last = new LastResults();
    const results = [1, 2, 3].map((trial) =>
      result('t', 'similarity', trial === 1 ? 'fail' : 'pass', {
        trial,
        score: trial === 1 ? 0.2 : 0.9,
        reason: trial === 1 ? 'too far' : 'close',
      }),
    );
    last.record(
      CONFIG,
      caseEnd('t', 0, 'failed', [
        ...results,
        result('t', 'exact_match_consistency', 'fail', { trial: 0, score: 0, reason: 'trials disagree' }),
      ]),
    );
    const outcome = last.get(CONFIG, 't');
    assert.ok(outcome !== undefined);
    assert.deepEqual(tableRows(markdownHtml(outcomeHover(outcome, 'a.eval.yaml'))), [
      ['✗', 'similarity (1/3 trials)', '0.2', 'too far'],
      ['✗', 'exact_match_consistency (across trials)', '0', 'trials disagree'],
    ]);
    assert.equal(outcomeTitle(outcome), '✗ failed · similarity 0.2 · exact_match_consistency (across trials) 0');
  });

  it("titles the config's last run with its pass count, job score and age", () => {
    const now = 1_000_000_000;
    const run = { passed: 7, failed: 1, errored: 0, total: 8, cancelled: false, endedAt: now - 2 * 60_000 };
    assert.equal(
      configRunTitle({ ...run, job: { score: 0.9137, threshold: 0.8, pass: true } }, now),
      '✗ 7/8 · job 0.91 · 2 min ago',
    );
    assert.equal(
      configRunTitle({ ...run, passed: 8, failed: 0, job: { score: 0.95, threshold: 0.8, pass: true } }, now),
      '✓ 8/8 · job 0.95 · 2 min ago',
    );
    assert.equal(
      configRunTitle({ ...run, passed: 8, failed: 0, job: { score: 0.42, threshold: 0.8, pass: false } }, now),
      '✗ 8/8 · job 0.42 < 0.8 · 2 min ago',
    );
    assert.equal(
      configRunTitle({ ...run, failed: 0, errored: 1, cancelled: true, endedAt: now }, now),
      '⚠ 7/8 · stopped · just now',
    );
    assert.deepEqual([0, 59_999, 60_000, 3_599_999, 3_600_000, 86_400_000 * 2].map(timeAgo), [
      'just now',
      'just now',
      '1 min ago',
      '59 min ago',
      '1 h ago',
      '2 d ago',
    ]);
  });
});

describe('the last run of each config', () => {
  it("folds a run's events into its counts and job score, counting each result once", () => {
    let now = 5;
    const runs = new LastRuns(() => now);
    const changed: string[] = [];
    runs.onDidChange((config) => changed.push(config));
    const start = runStart();
    runs.onEvent(CONFIG, { ...start, jobThreshold: 0.5 });
    const scored = result('ok', 'similarity', 'pass', { score: 0.9 });
    runs.onEvent(CONFIG, { type: 'result', result: scored });
    runs.onEvent(CONFIG, caseEnd('ok', 0, 'passed', [scored]));
    runs.onEvent(CONFIG, caseEnd('bad', 1, 'failed', [result('bad', 'similarity', 'fail', { score: 0.3 })]));
    assert.equal(runs.get(CONFIG), undefined, 'nothing until the run ends');
    now = 7;
    runs.onEvent(CONFIG, {
      type: 'run/end',
      runId: 'run-1',
      finishedAt: '',
      durationMs: 2,
      cancelled: false,
      summary: { passed: 1, failed: 1, errored: 0, skipped: 0, total: 2 },
    });
    const summary = runs.get(CONFIG);
    assert.ok(summary !== undefined);
    assert.equal(summary.job?.score, 0.6);
    assert.deepEqual(
      { ...summary, job: undefined },
      { passed: 1, failed: 1, errored: 0, total: 2, cancelled: false, endedAt: 7, job: undefined },
    );
    assert.deepEqual(changed, [CONFIG]);
  });

  it('has no job score when the CLI sent no job threshold', () => {
    const runs = new LastRuns(() => 0);
    runs.onEvent(CONFIG, runStart());
    runs.onEvent(CONFIG, {
      type: 'run/end',
      runId: 'run-1',
      finishedAt: '',
      durationMs: 2,
      cancelled: false,
      summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0 },
    });
    assert.equal(runs.get(CONFIG)?.job, undefined);
  });
});
