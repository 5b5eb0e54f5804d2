import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ReportSource } from '../../../core/report/report';
import type { CaseEndEvent, RunEvent } from '../../../core/runner/events';
import reportSchema from '../../../schemas/report.schema.json';
import compareSchema from '../../../schemas/compare-report.schema.json';
import { SAMPLE_HEAD, sampleEvents, sourceFrom } from '../../support/sampleRun';
import { runReporter } from './harness';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
const validate = ajv.compile(reportSchema);

/** The sample run with issue 16's statistics: exact_match over 40 cases, keywords over 3 (too few). */
function statisticsHead(): ReportSource['head'] {
  const [exact, keywords] = SAMPLE_HEAD.scorers;
  assert.ok(exact?.test && keywords);
  return {
    ...SAMPLE_HEAD,
    numTrials: 2,
    scorers: [
      {
        ...exact,
        test: { ...exact.test, primary_score: 0.78 },
        meanScore: 0.78,
        stderr: 0.035,
        ci_low: 0.71,
        ci_high: 0.85,
        mde: 0.139,
        cases: 40,
        clustered: true,
        too_wide: false,
        passRate: 0.78,
        pass_rate_ci_low: 0.7123,
        pass_rate_ci_high: 0.8456,
        pass_rate_too_wide: false,
      },
      {
        ...keywords,
        stderr: 0.1,
        ci_low: -0.03,
        ci_high: 0.83,
        mde: null,
        cases: 3,
        clustered: false,
        too_wide: true,
        pass_rate_ci_low: 0.0945,
        pass_rate_ci_high: 0.9055,
        pass_rate_too_wide: true,
      },
    ],
  };
}

/** The sample run's events with two trials, the failed case flaky (1 of 2 trials passed). */
function flakyEvents(): RunEvent[] {
  return sampleEvents().map((e): RunEvent => {
    if (e.type === 'run/start') return { ...e, numTrials: 2 };
    if (e.type !== 'case/end' || e.status !== 'failed') return e;
    const end: CaseEndEvent = {
      ...e,
      trials: {
        trials: 2,
        passed: 1,
        passRate: 0.5,
        passAtK: [0.5, 1],
        passHatK: [0.5, 0],
        pass_rate: 0.5,
        pass_rate_ci_low: 0.0945,
        pass_rate_ci_high: 0.9055,
        flaky: true,
        meets_min_pass_rate: false,
      },
    };
    return end;
  });
}

describe('reports with statistics', () => {
  it('writes a JSON report whose statistics the report schema accepts, and refuses malformed ones', async () => {
    const events = flakyEvents();
    const text = await runReporter('json', { events, source: sourceFrom(statisticsHead(), events) });
    const report = JSON.parse(text) as {
      scorers: Record<string, unknown>[];
      cases: { id: string; trials?: Record<string, unknown> }[];
    };
    assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
    assert.equal(report.scorers[0]?.['ci_low'], 0.71);
    assert.equal(report.scorers[0]?.['pass_rate_ci_high'], 0.8456);
    assert.equal(report.scorers[1]?.['too_wide'], true);
    assert.equal(report.scorers[1]?.['mde'], null);
    const flaky = report.cases.find((c) => c.id === 'ungrounded');
    assert.equal(flaky?.trials?.['flaky'], true);
    assert.equal(flaky?.trials?.['pass_rate_ci_low'], 0.0945);
    const broken = structuredClone(report);
    (broken.scorers[0] as Record<string, unknown>)['too_wide'] = 'yes';
    assert.equal(validate(broken), false);
    const outOfRange = structuredClone(report);
    (outOfRange.scorers[0] as Record<string, unknown>)['pass_rate_ci_high'] = 1.2;
    assert.equal(validate(outOfRange), false);
  });

  it("adds each tested scorer's 95% interval to the JUnit suite's properties, beside its mean", async () => {
    const events = flakyEvents();
    const xml = await runReporter('junit', { events, source: sourceFrom(statisticsHead(), events) });
    assert.match(xml, /<property name="scorer\.exact_match\.mean_score" value="0\.78"\/>/);
    assert.match(
      xml,
      /<property name="scorer\.exact_match\.ci_low" value="0\.71"\/>\n\s*<property name="scorer\.exact_match\.ci_high" value="0\.85"\/>/,
    );
    assert.match(xml, /<property name="scorer\.keywords\.ci_low" value="-0\.03"\/>/);
  });

  it("shows each scorer's mean and pass rate with their 95% intervals, says when one is too wide, and marks flaky cases", async () => {
    const events = flakyEvents();
    const text = await runReporter('console', { events, source: sourceFrom(statisticsHead(), events) });
    assert.match(text, /^FAIL ungrounded \(9ms\) \[1\/2 trials passed, flaky\]$/m);
    assert.match(text, /^exact_match +78% \[71\.2%, 84\.6%\] +0\.78 \[0\.71, 0\.85\] +threshold 0\.8 → fail$/m);
    assert.match(
      text,
      /^keywords +50% \[9\.4%, 90\.5%\] +0\.4 \[-0\.03, 0\.83\] +threshold 0\.3 → pass; interval too wide to mean anything \(3 cases, fewer than 10\)$/m,
    );
  });
});
