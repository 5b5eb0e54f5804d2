import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readEvalBenchResults } from '../../core/report/evalbenchResults';
import { importedCaseData } from '../../extension/results/importedCaseData';
import { caseFields, expectedOutputDiff } from '../../webview/model/caseView';
import { ROOT } from '../support/cli';

const JOB = join(ROOT, 'test', 'fixtures', 'evalbench', 'results', '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e');

describe('case fields of a report read from EvalBench results', () => {
  it("gives the detail pane the prompt, golden SQL and each trial's generated SQL and error", async () => {
    const { report } = await readEvalBenchResults(JOB, { toolVersion: '0.0.0-test' });
    const data = importedCaseData(report, '2');
    assert.ok(data !== undefined);
    assert.equal(data.input, 'List users named "O\'Brien, Jr." who signed up\nafter 2020, with their email');
    assert.equal(
      data.expected,
      "SELECT name, email FROM users WHERE name = 'O''Brien, Jr.' AND signup > '2020-12-31';",
    );
    const second = caseFields(data, 2);
    assert.equal(second.output, "SELECT name, email FROM user WHERE signup > '2020-12-31'");
    assert.match(second.trialError ?? '', /^relation "user" does not exist/);
    assert.equal(caseFields(data, 1).output, "SELECT name, email\nFROM users\nWHERE name = 'O''Brien, Jr.'");
    assert.equal(expectedOutputDiff(second)?.ok, true);
    // One trial (a DML eval): no per-trial list.
    assert.equal(importedCaseData(report, '3')?.trials, undefined);
  });

  it('leaves a report EvalLens ran to the dataset reader', async () => {
    const { report } = await readEvalBenchResults(JOB, { toolVersion: '0.0.0-test' });
    const { imported: _imported, ...ran } = report;
    assert.equal(importedCaseData(ran, '2'), undefined);
    assert.equal(importedCaseData(report, 'no-such-case'), undefined);
  });
});
