import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseLenses, failureDiagnostics, outcomeHover, outcomeTitle, RUN_CASE_TITLE } from '../../extension/editor/caseAnnotations';
import { LastResults } from '../../extension/testing/lastResults';
import { markdownHtml, tableRows, visibleText } from '../support/renderMarkdown';
import { caseEnd, DATASET, result } from './events';

const CONFIG = '/data/a.eval.yaml';

function resultsAfterRun(): LastResults {
  const last = new LastResults();
  last.record(CONFIG, caseEnd('ok', 0, 'passed', [result('ok', 'contains', 'pass', { score: 1 }), result('ok', 'similarity', 'pass', { score: 0.9 })]));
  last.record(CONFIG, caseEnd('bad', 1, 'failed', [result('bad', 'contains', 'pass', { score: 1 }), result('bad', 'similarity', 'fail', { score: 0.42, reason: 'too far' })]));
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
    assert.deepEqual(lenses.map((l) => l.title), ['Run case · one.eval.yaml', 'Run case · two.eval.yaml']);
  });

  it('shortens a title with many failing scorers', () => {
    const last = new LastResults();
    last.record(CONFIG, caseEnd('m', 0, 'failed', ['a', 'b', 'c', 'd', 'e'].map((s) => result('m', s, 'fail'))));
    const outcome = last.get(CONFIG, 'm');
    assert.ok(outcome !== undefined);
    assert.equal(outcomeTitle(outcome), '✗ failed · a · b · c · +2');
  });

  it('gives each failing case a diagnostic with its reasons on its own range, and none to passing ones', () => {
    const specs = failureDiagnostics(resultsAfterRun().inFile(DATASET));
    assert.deepEqual(specs, [{ start: { line: 1, column: 0 }, end: { line: 1, column: 50 }, message: 'case "bad" failed: similarity failed · score 0.42: too far' }]);
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
    last.record(CONFIG, caseEnd('h|1', 0, 'failed', [result('h|1', 'contains', 'pass', { score: 1 }), result('h|1', 'similarity', 'fail', { score: 0.5, reason: 'use *bold* | pipes' })]));
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
      last.record(CONFIG, caseEnd(id, 0, 'failed', [result(id, 'similarity', 'fail', { score: 0.5, reason: `${id} [is] *off*` })]));
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
    const results = [1, 2, 3].map((trial) => result('t', 'similarity', trial === 1 ? 'fail' : 'pass', { trial, score: trial === 1 ? 0.2 : 0.9, reason: trial === 1 ? 'too far' : 'close' }));
    last.record(CONFIG, caseEnd('t', 0, 'failed', [...results, result('t', 'exact_match_consistency', 'fail', { trial: 0, score: 0, reason: 'trials disagree' })]));
    const outcome = last.get(CONFIG, 't');
    assert.ok(outcome !== undefined);
    assert.deepEqual(tableRows(markdownHtml(outcomeHover(outcome, 'a.eval.yaml'))), [
      ['✗', 'similarity (1/3 trials)', '0.2', 'too far'],
      ['✗', 'exact_match_consistency (across trials)', '0', 'trials disagree'],
    ]);
    assert.equal(outcomeTitle(outcome), '✗ failed · similarity 0.2 · exact_match_consistency (across trials) 0');
  });
});
