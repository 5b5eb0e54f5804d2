import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readEvalBenchResults } from '../../core/report/evalbenchResults';
import { initialState } from '../../webview/model/viewState';
import { showReport } from '../../webview/model/fold';
import { jobLine } from '../../webview/model/summary';
import { ROOT } from '../support/cli';

const RESULTS = join(ROOT, 'test', 'fixtures', 'evalbench', 'results');

describe('the summary band of a report read from EvalBench results', () => {
  it("shows EvalBench's own summary numbers as written, labelled as not re-scored", async () => {
    const { report } = await readEvalBenchResults(join(RESULTS, '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e'), {
      toolVersion: '0.0.0-test',
    });
    const state = showReport(initialState(), report, true);
    assert.deepEqual(jobLine(state.run), {
      text: "EvalBench's own summary (as written, not re-scored): exact_match 3/3 · set_match 4/3 · executable 4/6",
      verdict: 'none',
    });
  });

  it('names each job of a folder of jobs', async () => {
    const { report } = await readEvalBenchResults(RESULTS, { toolVersion: '0.0.0-test' });
    const text = jobLine(showReport(initialState(), report, true).run).text;
    assert.match(
      text,
      /job 5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e: exact_match 3\/3 · set_match 4\/3 · executable 4\/6; job a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b: exact_match 1\/1 · llmrater 1\/1 · exact_match_consistency 0\/1 · executable 1\/2$/,
    );
  });

  it('leaves a report EvalLens ran as it was', async () => {
    const { report } = await readEvalBenchResults(RESULTS, { toolVersion: '0.0.0-test' });
    const { imported: _imported, ...ran } = report;
    assert.match(jobLine(showReport(initialState(), ran, true).run).text, /^No job score/);
  });
});
