/**
 * The compare mode's host side on two real runs made by the built CLI: the runs folder listed for the
 * pickers, the preselected pair, the CLI's comparison read and chunked for the view, and the CLI's
 * message when two runs cannot be compared.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  baselineFileOf,
  compareMessages,
  defaultPair,
  listRuns,
  parseComparison,
  readRunHead,
  runChoice,
  runCompare,
} from '../../../extension/results/compareSource';
import { CLI } from '../../support/cli';
import { type ComparedRuns, makeComparedRuns, REGRESSED } from '../support/compareRuns';

let runs: ComparedRuns;

before(async () => {
  runs = await makeComparedRuns();
});

after(() => runs.cleanup());

describe('compare mode, host side', () => {
  it('lists the runs folder newest first, each by its config, time and counts, from the report head only', async () => {
    const listed = await listRuns(runs.runsDir);
    assert.deepEqual(
      listed.map((r) => r.folder),
      [runs.candidateRun, runs.baselineRun],
    );
    const [candidate] = listed;
    assert.ok(candidate !== undefined);
    assert.equal(candidate.head.configFile, join(runs.work, 'evals', 'refunds.eval.yaml'));
    assert.deepEqual(candidate.head.summary, { passed: 31 - REGRESSED, failed: REGRESSED, total: 31 });
    const choice = runChoice(candidate, (file) => file.slice(runs.work.length + 1));
    assert.match(choice.label, /^evals\/refunds\.eval\.yaml · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    assert.equal(choice.detail, `19 passed, 12 failed of 31 · ${candidate.head.runId ?? ''}`);
    assert.equal(choice.path, runs.candidateRun);
  });

  it('skips a folder without a report (a run that did not finish) and a report it cannot read the head of still lists', async () => {
    mkdirSync(join(runs.runsDir, '9999-unfinished'), { recursive: true });
    const odd = join(runs.runsDir, '9998-odd');
    mkdirSync(odd, { recursive: true });
    writeFileSync(join(odd, 'report.json'), '{"version": 1}');
    const listed = await listRuns(runs.runsDir);
    assert.deepEqual(
      listed.map((r) => r.folder),
      [odd, runs.candidateRun, runs.baselineRun],
    );
    assert.deepEqual(await readRunHead(join(odd, 'report.json')), {});
  });

  it('preselects the newest run of the config against its baseline file, else against its run before', async () => {
    const listed = (await listRuns(runs.runsDir)).filter((r) => r.head.configFile !== undefined);
    const config = join(runs.work, 'evals', 'refunds.eval.yaml');
    assert.deepEqual(defaultPair(listed, config, undefined), {
      baseline: runs.baselineRun,
      candidate: runs.candidateRun,
    });
    assert.equal(baselineFileOf(config), join(runs.work, 'evals', 'refunds.baseline.json'));
    assert.deepEqual(defaultPair(listed, config, baselineFileOf(config)), {
      baseline: baselineFileOf(config),
      candidate: runs.candidateRun,
    });
    assert.deepEqual(defaultPair(listed, join(runs.work, 'other.eval.yaml'), undefined), {});
  });

  it('has the CLI compare the two runs and sends the head with the first cases, the rest in chunks', async () => {
    const answer = await runCompare(CLI, runs.baselineRun, runs.candidateRun, runs.work);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.deepEqual(answer, parseComparison(runs.compareJson), 'the same as the CLI prints');
    assert.equal(answer.head.counts.regressed, REGRESSED);
    assert.equal(answer.head.scorers.find((s) => s.name === 'contains')?.verdict, 'regressed');
    assert.equal(answer.cases.length, 32);
    const messages = compareMessages(answer.head, answer.cases, 10);
    assert.deepEqual(
      messages.map((m) => [m.type, 'cases' in m ? m.cases.length : 0, 'complete' in m ? m.complete : undefined]),
      [
        ['compare/show', 10, false],
        ['compare/append', 10, false],
        ['compare/append', 10, false],
        ['compare/append', 2, true],
      ],
    );
  });

  it('says why two runs cannot be compared, in the CLI words (which file, what differs)', async () => {
    const other = join(runs.work, 'other');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'report.json'), 'not json\n');
    const answer = await runCompare(CLI, runs.baselineRun, join(other, 'report.json'), runs.work);
    assert.equal(answer.ok, false);
    assert.match(
      answer.ok ? '' : answer.reason,
      /other\/report\.json:1:1: expected a JSON report, saw a JSON syntax error/,
    );
    assert.doesNotMatch(answer.ok ? '' : answer.reason, /^evallens:/);
  });

  it('refuses output that is not a comparison of version 1', () => {
    assert.equal(parseComparison('{"version":2}').ok, false);
    assert.equal(parseComparison('nope').ok, false);
  });
});
