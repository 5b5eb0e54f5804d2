/**
 * runDecision, the one rule every run of the Test Explorer, a CodeLens, a save and a continuous run
 * passes through: a save never spends money (unless opted in, in a trusted workspace), Restricted Mode
 * never lets a save reach the network, and a run with more judge calls than the threshold asks first.
 * A table of cases with their exact outcome, then every combination checked against the rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunPlan } from '../../extension/runner/plan';
import { planIsFree } from '../../extension/runner/plan';
import type { DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { freeByDiscovery, runDecision, type RunContext, type RunDecision } from '../../extension/testing/runDecision';

const configFile = '/w/a.eval.yaml';
const DISCOVERED: Record<'free' | 'judges' | 'target' | 'broken' | 'unknown', DiscoveredConfig | undefined> = {
  free: { configFile, cases: [], reaches: [], target: false },
  judges: { configFile, cases: [], reaches: ['network'], target: false },
  target: { configFile, cases: [], reaches: [], target: true },
  broken: { configFile, cases: [], reaches: [], problem: '1:1: expected a mapping' },
  unknown: undefined,
};

const judge = (judgeCalls: number, trials = 1): RunPlan => ({
  cases: judgeCalls / trials,
  trials,
  judgeCalls,
  target: false,
  scorers: [{ name: 'llm_rubric', key: 'rubric', reaches: 'network', judgeCalls }],
});
const PLANS = {
  free: {
    cases: 3,
    trials: 1,
    judgeCalls: 0,
    target: false,
    scorers: [{ name: 'exact_match', key: 'exact_match', judgeCalls: 0 }],
  },
  judges10: judge(10),
  judges50: judge(50),
  judges100: judge(100, 2),
  target: { cases: 3, trials: 1, judgeCalls: 0, target: true, scorers: [] },
  database: { cases: 3, trials: 1, judgeCalls: 0, target: false, scorers: [], reaches: ['network'] },
  networkScorer: {
    cases: 3,
    trials: 1,
    judgeCalls: 0,
    target: false,
    scorers: [{ name: 'http_check', key: 'http', reaches: 'network', judgeCalls: 0 }],
  },
  none: undefined,
} satisfies Record<string, RunPlan | undefined>;

type Who = 'save' | 'person';
interface Row {
  readonly who: Who;
  readonly trusted: boolean;
  readonly costlyOnSave?: boolean;
  readonly above?: number;
  readonly discovered: keyof typeof DISCOVERED;
  readonly plan: keyof typeof PLANS;
  readonly expect: RunDecision;
}

const context = (who: Who, trusted: boolean, costlyOnSave = false, above = 50): RunContext => ({
  configName: 'a.eval.yaml',
  fromSave: who === 'save',
  trusted,
  costlyScorersOnSave: costlyOnSave,
  confirmJudgeCallsAbove: above,
});
const RUN: RunDecision = { kind: 'run' };
const OPT_IN = 'set evallens.run.costlyScorersOnSave to run it on save';
const TRUST = 'Restricted Mode: trust the workspace to run it on save';
const refuse = (why: string): RunDecision => ({ kind: 'refuse', message: `a.eval.yaml was not run on save: ${why}.` });

const ROWS: Row[] = [
  { who: 'save', trusted: false, discovered: 'free', plan: 'none', expect: RUN },
  {
    who: 'save',
    trusted: true,
    discovered: 'judges',
    plan: 'judges10',
    expect: refuse(`it makes 10 LLM judge calls (${OPT_IN})`),
  },
  { who: 'save', trusted: true, costlyOnSave: true, discovered: 'judges', plan: 'judges100', expect: RUN },
  {
    who: 'save',
    trusted: false,
    costlyOnSave: true,
    discovered: 'judges',
    plan: 'judges10',
    expect: refuse(`it makes 10 LLM judge calls (${TRUST})`),
  },
  { who: 'save', trusted: true, discovered: 'target', plan: 'target', expect: refuse(`it calls a target (${OPT_IN})`) },
  {
    who: 'save',
    trusted: true,
    discovered: 'judges',
    plan: 'database',
    expect: refuse(`it connects to a server database (${OPT_IN})`),
  },
  {
    who: 'save',
    trusted: false,
    costlyOnSave: true,
    discovered: 'judges',
    plan: 'database',
    expect: refuse(`it connects to a server database (${TRUST})`),
  },
  {
    who: 'save',
    trusted: true,
    discovered: 'judges',
    plan: 'networkScorer',
    expect: refuse(`its scorers reach the network (${OPT_IN})`),
  },
  { who: 'save', trusted: true, discovered: 'target', plan: 'none', expect: refuse(`it calls a target (${OPT_IN})`) },
  {
    who: 'save',
    trusted: false,
    discovered: 'judges',
    plan: 'none',
    expect: refuse(`it reaches the network: LLM judges or a server database (${TRUST})`),
  },
  // A config that did not load is left to the run, which says why.
  { who: 'save', trusted: true, discovered: 'broken', plan: 'none', expect: RUN },
  { who: 'save', trusted: true, discovered: 'unknown', plan: 'none', expect: RUN },
  // The plan, when there is one, decides over discovery's coarser view.
  { who: 'save', trusted: true, discovered: 'judges', plan: 'free', expect: RUN },
  {
    who: 'person',
    trusted: true,
    discovered: 'judges',
    plan: 'judges100',
    expect: {
      kind: 'confirm',
      question: 'This run of a.eval.yaml makes 100 LLM judge calls (50 cases × 2 trials; llm_rubric: 100).',
      detail: 'Runs that need more than 50 judge calls ask first (evallens.confirmJudgeCallsAbove).',
      declined: 'a.eval.yaml was not run: 100 judge calls were not confirmed.',
    },
  },
  {
    who: 'person',
    trusted: true,
    above: 9,
    discovered: 'judges',
    plan: 'judges10',
    expect: {
      kind: 'confirm',
      question: 'This run of a.eval.yaml makes 10 LLM judge calls (10 cases × 1 trial; llm_rubric: 10).',
      detail: 'Runs that need more than 9 judge calls ask first (evallens.confirmJudgeCallsAbove).',
      declined: 'a.eval.yaml was not run: 10 judge calls were not confirmed.',
    },
  },
  // At the threshold: no question.
  { who: 'person', trusted: true, discovered: 'judges', plan: 'judges50', expect: RUN },
  // Restricted Mode calls no judge: nothing to confirm.
  { who: 'person', trusted: false, discovered: 'judges', plan: 'judges100', expect: RUN },
  // A CLI without `plan`: no count to confirm; the run goes ahead.
  { who: 'person', trusted: true, discovered: 'judges', plan: 'none', expect: RUN },
  // A person's run is never refused for spending: targets and databases run when asked for.
  { who: 'person', trusted: true, discovered: 'target', plan: 'target', expect: RUN },
  { who: 'person', trusted: false, discovered: 'judges', plan: 'database', expect: RUN },
];

describe('runDecision', () => {
  for (const row of ROWS) {
    const name = `${row.who}, ${row.trusted ? 'trusted' : 'Restricted Mode'}${row.costlyOnSave === true ? ', costlyScorersOnSave' : ''}, discovered ${row.discovered}, plan ${row.plan}`;
    it(name, () => {
      assert.deepEqual(
        runDecision(
          context(row.who, row.trusted, row.costlyOnSave, row.above),
          DISCOVERED[row.discovered],
          PLANS[row.plan],
        ),
        row.expect,
      );
    });
  }

  it('holds its rules over every combination', () => {
    let checked = 0;
    for (const who of ['save', 'person'] as const)
      for (const trusted of [true, false])
        for (const costlyOnSave of [true, false])
          for (const above of [0, 10, 50, 1000])
            for (const [discoveredName, discovered] of Object.entries(DISCOVERED))
              for (const [planName, plan] of Object.entries(PLANS)) {
                const decision = runDecision(context(who, trusted, costlyOnSave, above), discovered, plan);
                const where = `${who} trusted=${trusted} costly=${costlyOnSave} above=${above} ${discoveredName}/${planName}: ${JSON.stringify(decision)}`;
                const free = freeByDiscovery(discovered);
                const costly =
                  !free &&
                  ((plan !== undefined && !planIsFree(plan)) ||
                    (plan === undefined &&
                      discovered !== undefined &&
                      (discovered.target === true || discovered.reaches.includes('network'))));
                // A save never asks, and never spends unless opted in in a trusted workspace.
                if (who === 'save') assert.notEqual(decision.kind, 'confirm', where);
                if (who === 'save' && costly)
                  assert.equal(decision.kind, trusted && costlyOnSave ? 'run' : 'refuse', where);
                // Restricted Mode: a save that would reach the network never runs, whatever the setting.
                if (who === 'save' && !trusted && costly) assert.equal(decision.kind, 'refuse', where);
                // A person's run is never refused; it asks exactly when trusted and over the threshold.
                if (who === 'person') {
                  const asks = trusted && !free && plan !== undefined && plan.judgeCalls > above;
                  assert.equal(decision.kind, asks ? 'confirm' : 'run', where);
                }
                if (!costly) assert.notEqual(decision.kind, 'refuse', where);
                checked++;
              }
    assert.equal(checked, 2 * 2 * 2 * 4 * 5 * 8);
  });
});
