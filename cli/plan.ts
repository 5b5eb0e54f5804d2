import type { RunConfig } from '../core/config/runConfig';
import { describePlan, planJudgeCalls } from '../core/judge/judgeCallPlan';
import { caseRecords } from '../core/runner/records';
import { jsonPrintable, printable } from '../shared/text/printable';
import type { Command } from './args';
import { databaseReaches } from './preparers';
import { estimateSpend } from '../core/runner/spendEstimate';
import { estimateLines } from './planEstimate';
import { shardRecords } from './shard';

/**
 * `evallens plan <config>`: what a run would do before it does it — the cases, the trials and how
 * many judge calls its LLM-judge scorers would make. `--json` prints
 * `{"cases", "trials", "judgeCalls", "scorers": [{"name", "key", "reaches"?, "judgeCalls"}], "target", "reaches"}`,
 * which the extension reads to ask for confirmation above a configured number of calls, and `estimate`
 * (core/runner/spendEstimate.ts: per judge scorer its tokens and cost), which it shows. The top-level
 * `reaches` is what the run reaches besides its scorers: `network` for a server database config.
 */
export async function printPlan(
  config: RunConfig,
  command: Extract<Command, { kind: 'plan' }>,
  out: NodeJS.WritableStream,
): Promise<void> {
  const options = {
    selection: { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) },
    ...(command.trials === undefined ? {} : { trials: command.trials }),
  };
  // `--shard`: the shard's cases only, picked as `run --shard` picks them.
  const { shard } = command;
  const records = () => (shard === undefined ? caseRecords(config) : shardRecords(caseRecords(config), shard));
  const plan = await planJudgeCalls(config, records(), options);
  const estimate = await estimateSpend(config, records(), options);
  // A config with a `target:` (generation before scoring) calls the system under test as well.
  const target = (config as RunConfig & { readonly target?: unknown }).target !== undefined;
  const reaches = databaseReaches(config);
  if (command.json) {
    out.write(
      `${jsonPrintable(JSON.stringify({ cases: plan.cases, trials: plan.trials, judgeCalls: plan.judgeCalls, scorers: plan.scorers, target, reaches, estimate }))}\n`,
    );
    return;
  }
  out.write(`${printable(describePlan(plan))}\n`);
  for (const s of plan.scorers)
    out.write(
      `  ${printable(s.name)}${s.name === s.key ? '' : ` (${s.key})`}: ${s.judgeCalls} judge call${s.judgeCalls === 1 ? '' : 's'}${s.reaches === undefined ? '' : `, reaches ${s.reaches}`}\n`,
    );
  if (target) out.write('  the config has a target: the run calls the system under test for each case × trial\n');
  if (reaches.length > 0)
    out.write('  the config names server database configs: the run connects to them (a run without trust does not)\n');
  for (const line of estimateLines(estimate, process.cwd())) out.write(`${line}\n`);
}
