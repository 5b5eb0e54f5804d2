/**
 * What a run will cost before it starts. Discovery's listing carries it (discoveryPlan.ts), so a click
 * starts no process for it; this is the fallback for a listing without it (an older CLI):
 * `evallens plan <config> [--case id]… [--trials n] --json`
 * prints `{cases, trials, judgeCalls, scorers: [{name, key, reaches?, judgeCalls}], target, reaches?, estimate?}`
 * (`estimate`: the judges' tokens and cost, which the run confirmation shows; see confirmEstimate). A CLI
 * without the `plan` command (exit 2, "unknown command") gives no plan, and the run goes ahead
 * without asking; so does a plan that cannot be read.
 */
import { forkCli } from './forkCli';

/** The most of the plan read back (a few hundred bytes per judge scorer). */
const MAX_PLAN_BYTES = 16 * 1024 * 1024;
import { planArgs } from './cliArgs';

export interface PlannedScorer {
  readonly name: string;
  readonly key: string;
  readonly reaches?: string;
  readonly judgeCalls: number;
}

export interface RunPlan {
  readonly cases: number;
  readonly trials: number;
  readonly judgeCalls: number;
  readonly scorers: readonly PlannedScorer[];
  /** Whether the run calls a target (the system under test) rather than scoring recorded outputs. */
  readonly target: boolean;
  /** What the run reaches besides its scorers: `network` when the config names a server database. */
  readonly reaches?: readonly string[];
  /** The judges' tokens and cost (`estimate` of `evallens plan --json`); absent from discovery's plan and older CLIs. */
  readonly estimate?: PlanEstimate;
}

/** The totals of the CLI's estimate (core/runner/spendEstimate.ts), as the confirmation shows them. */
export interface PlanEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Absent when a judge's model config has no prices (`unpriced` names those scorers). */
  readonly cost?: number;
  readonly unpriced: readonly string[];
}

export type PlanAnswer =
  { readonly ok: true; readonly plan: RunPlan } | { readonly ok: false; readonly reason: string };

/** Reads the CLI's plan; never throws. Bounded: a plan that takes longer than `timeoutMs` is no plan. */
export async function fetchPlan(
  cliPath: string,
  request: Parameters<typeof planArgs>[0],
  cwd: string,
  timeoutMs = 30_000,
): Promise<PlanAnswer> {
  const exit = await forkCli(cliPath, planArgs(request), { cwd, timeoutMs, maxStdoutBytes: MAX_PLAN_BYTES });
  if (exit.startError !== undefined) return { ok: false, reason: exit.startError };
  if (exit.stdoutCut) return { ok: false, reason: `the plan is longer than ${MAX_PLAN_BYTES} bytes` };
  if (exit.code !== 0) {
    // An older CLI: `plan` is an unknown command, or (argv parsed first) `--json` an unknown option.
    const unknown = exit.code === 2 && /unknown command "plan"|Unknown option '--json'/.test(exit.stderr);
    return {
      ok: false,
      reason: unknown ? 'this CLI has no `plan` command' : `\`evallens plan\` exited with ${String(exit.code)}`,
    };
  }
  return parsePlan(exit.stdout.toString('utf8'));
}

/** Checks the printed plan against the contract; anything else is no plan. */
export function parsePlan(text: string): PlanAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the plan is not JSON' };
  }
  const v = fields(value);
  if (v === undefined) return { ok: false, reason: 'the plan is not a JSON object' };
  const cases = v['cases'];
  const trials = v['trials'];
  const judgeCalls = v['judgeCalls'];
  const target = v['target'];
  const scorers = v['scorers'];
  if (
    !isCount(cases) ||
    !isCount(trials) ||
    !isCount(judgeCalls) ||
    typeof target !== 'boolean' ||
    !Array.isArray(scorers)
  ) {
    return { ok: false, reason: 'the plan lacks cases, trials, judgeCalls, target or scorers' };
  }
  const planned: PlannedScorer[] = [];
  for (const entry of scorers) {
    const s = fields(entry);
    if (s === undefined || typeof s['name'] !== 'string' || typeof s['key'] !== 'string' || !isCount(s['judgeCalls'])) {
      return { ok: false, reason: 'a scorer of the plan lacks name, key or judgeCalls' };
    }
    const reaches = s['reaches'];
    planned.push({
      name: s['name'],
      key: s['key'],
      judgeCalls: s['judgeCalls'],
      ...(typeof reaches === 'string' ? { reaches } : {}),
    });
  }
  const reaches = Array.isArray(v['reaches']) ? v['reaches'].filter((r): r is string => typeof r === 'string') : [];
  const estimate = parseEstimate(v['estimate']);
  return {
    ok: true,
    plan: {
      cases,
      trials,
      judgeCalls,
      target,
      scorers: planned,
      ...(reaches.length === 0 ? {} : { reaches }),
      ...(estimate === undefined ? {} : { estimate }),
    },
  };
}

/** The estimate's totals, or undefined when absent or malformed (the plan stands without it). */
function parseEstimate(value: unknown): PlanEstimate | undefined {
  const e = fields(value);
  if (e === undefined || !isCount(e['inputTokens']) || !isCount(e['outputTokens'])) return undefined;
  const cost = e['cost'];
  const unpriced = Array.isArray(e['unpriced']) ? e['unpriced'].filter((n): n is string => typeof n === 'string') : [];
  return {
    inputTokens: e['inputTokens'],
    outputTokens: e['outputTokens'],
    ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { cost } : {}),
    unpriced,
  };
}

/** The estimate as the run confirmation says it. */
export function estimateText(estimate: PlanEstimate): string {
  const tokens = `about ${estimate.inputTokens.toLocaleString('en-US')} prompt tokens and at most ${estimate.outputTokens.toLocaleString('en-US')} answer tokens`;
  if (estimate.cost !== undefined)
    return `Estimated: ${tokens}, costing up to about ${Number(estimate.cost.toFixed(4))} at the model configs' prices.`;
  const names = estimate.unpriced.join(', ');
  return `Estimated: ${tokens}; no cost figure${names === '' ? '' : ` (${names}: no price_per_million_* in the model config)`}.`;
}

/** Whether a run of this plan spends nothing: no target, no judge call, nothing reaching the network (no server database). */
export function planIsFree(plan: RunPlan): boolean {
  return (
    !plan.target &&
    plan.judgeCalls === 0 &&
    plan.scorers.every((s) => s.reaches !== 'network') &&
    !(plan.reaches ?? []).includes('network')
  );
}

function fields(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
