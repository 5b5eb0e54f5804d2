/**
 * One config's part of a test run: mark its cases queued, plan it from discovery's listing (no process
 * of its own), maybe ask the person, fork the CLI with the same engine as CI — the one process of a
 * click — and map its event stream onto the TestRun. Cancelling kills the CLI's process group.
 */
import { dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { CaseEndEvent, RunEvent } from '../../protocol/runEvents';
import { FailureMemory } from '../baseline/regressedCases';
import { comparisonAfterRun } from '../baseline/runBaseline';
import type { RunComparison } from '../baseline/runComparison';
import { runArgs } from '../runner/cliArgs';
import { startCliRun } from '../runner/cliProcess';
import { fetchPlan, type RunPlan } from '../runner/plan';
import { planFromDiscovery } from '../runner/discoveryPlan';
import { MaskedLines } from '../runner/maskedText';
import type { EvalLensSettings } from '../settings';
import type { DiscoveredConfig } from './caseDiscovery';
import { freeByDiscovery, runDecision } from './runDecision';
import { RunEventMapper, type MappedRun } from './runEventMapper';
import { terminalText } from './resultText';
import { testRunSink } from './testRunSink';
import { printable } from '../../shared/text/printable';
import type { EvalTestTree } from './testTree';

/** Who else hears about a run: the results view, the status bar, the last results. */
export interface RunObservers {
  /** `cases`: how many cases the run is expected to end (for progress), when discovery knows. */
  onRunStart(configFile: string, cases?: number): void;
  onEvent(configFile: string, event: RunEvent): void;
  onCaseEnd(configFile: string, event: CaseEndEvent): void;
  /** Before `onRunEnd`: the run compared with the config's baseline (undefined: no baseline, or not compared). */
  onComparison?(configFile: string, comparison: RunComparison | undefined, testRun: vscode.TestRun): void;
  /**
   * `reportFile` is where the CLI wrote report.json, when the run got that far; `testRun` is the test
   * run the config's run was part of (one "Run All" covers several configs); `reportJson` the report's
   * text, when the run handed it over (then nothing needs to read the file).
   */
  onRunEnd(
    configFile: string,
    run: MappedRun,
    reportFile: string | undefined,
    testRun: vscode.TestRun,
    reportJson?: string,
  ): void;
}

export interface ConfigRunRequest {
  readonly configFile: string;
  /** Only these cases; undefined runs every case of the config. */
  readonly caseIds?: readonly string[];
  readonly trials?: number;
  /** Started by a save (continuous run, run on save): runs only what spends nothing, unless opted in. */
  readonly fromSave: boolean;
}

export interface ConfigRunContext {
  readonly cliPath: string;
  readonly settings: EvalLensSettings;
  readonly tree: EvalTestTree;
  readonly output: vscode.LogOutputChannel;
  readonly observers: RunObservers;
  /** The config as discovery read it (what its scorers reach, whether it has a target), when it could. */
  readonly discovered: DiscoveredConfig | undefined;
}

export async function runConfig(
  run: vscode.TestRun,
  request: ConfigRunRequest,
  context: ConfigRunContext,
  token: vscode.CancellationToken,
): Promise<void> {
  const { configFile } = request;
  const items = requestedItems(context.tree, request);
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(configFile));
  const cwd = folder?.uri.fsPath ?? dirname(configFile);
  const say = (text: string) => {
    run.appendOutput(terminalText(`${text}\n`));
    context.output.info(text);
  };

  // Queued at once, before the decision (and any question it asks): the click shows at the first frame.
  for (const item of items) run.enqueued(item);
  const go = await mayRun(request, context, cwd, say);
  if (!go || token.isCancellationRequested) {
    for (const item of items) run.skipped(item);
    return;
  }

  const runsDir = resolve(cwd, context.settings.runsDirectory);
  // Read at each run: granting trust takes effect on the next run, without a reload.
  const untrusted = !vscode.workspace.isTrusted;
  const args = runArgs({
    configFile,
    caseIds: request.caseIds ?? [],
    runsDir,
    untrusted,
    ...(request.trials === undefined ? {} : { trials: request.trials }),
    ...(context.settings.concurrency === undefined ? {} : { concurrency: context.settings.concurrency }),
  });
  if (untrusted)
    say(
      'Restricted Mode: scorers that run workspace code or reach the network, targets and cases on server databases are skipped ("workspace is not trusted"); no environment variable the workspace names is read.',
    );

  const sink = testRunSink(run, context.tree, configFile);
  // Remembers failing cases' messages: a regressed one is told so when the comparison comes, at the end.
  const failures = new FailureMemory();
  const mapper = new RunEventMapper(failures.wrap(sink));
  let stderr = '';
  // The CLI masks what it writes; a line it could not (a crash of Node itself) is masked here, whole.
  const stderrLines = new MaskedLines();
  context.observers.onRunStart(configFile, expectedCases(request, context.discovered));
  const cli = startCliRun(context.cliPath, args, cwd, {
    onEvent(event) {
      mapper.handle(event);
      if (event.type === 'case/end') context.observers.onCaseEnd(configFile, event);
      context.observers.onEvent(configFile, event);
    },
    onStderr(text) {
      const masked = stderrLines.push(text);
      stderr = keptStart(stderr, masked);
      if (masked !== '') run.appendOutput(terminalText(masked));
    },
  });
  const cancelListener = token.onCancellationRequested(() => cli.cancel());
  let timedOut = false;
  const limit = context.settings.runTimeLimitSeconds;
  const timer =
    limit === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          cli.cancel();
        }, limit * 1000);
  try {
    const exit = await cli.exited;
    const rest = stderrLines.flush();
    stderr = keptStart(stderr, rest);
    if (rest !== '') run.appendOutput(terminalText(rest));
    const mapped = mapper.finish();
    for (const caseId of mapped.unfinished) {
      const item = context.tree.caseItem(configFile, caseId);
      if (item !== undefined) run.skipped(item);
    }
    if (timedOut)
      say(
        `The run of ${vscode.workspace.asRelativePath(configFile)} was stopped after its time limit of ${limit ?? 0} s (evallens.run.timeLimitSeconds).`,
      );
    if (exit.streamError !== undefined) say(`The run's event stream broke: ${exit.streamError}`);
    if (mapped.runId === undefined && !exit.cancelled) {
      // The CLI stopped before the run started: config or dataset problems, printed as file:line:col.
      const why = stderr.trim() === '' ? `the CLI exited with ${String(exit.code ?? exit.signal)}` : stderr.trim();
      const message = new vscode.TestMessage(printable(why, { lines: true }));
      message.location = new vscode.Location(vscode.Uri.file(configFile), new vscode.Position(0, 0));
      for (const item of items) run.errored(item, message);
    }
    const reportFile = mapped.runId === undefined ? undefined : join(runsDir, mapped.runId, 'report.json');
    const finished = reportFile !== undefined && !exit.cancelled && (exit.code === 0 || exit.code === 1);
    const compared = finished
      ? await comparisonAfterRun({
          cliPath: context.cliPath,
          configFile,
          reportFile,
          cwd,
          ...(exit.reportJson === undefined ? {} : { reportJson: exit.reportJson }),
        })
      : {};
    if (compared.problem !== undefined)
      say(`Not compared with the baseline of ${vscode.workspace.asRelativePath(configFile)}: ${compared.problem}`);
    const comparison = compared.comparison;
    if (comparison !== undefined) {
      say(`Compared with the baseline: ${comparison.regressed.length} regressed, ${comparison.fixed.length} fixed.`);
      for (const caseId of comparison.regressed) {
        const notice = failures.regressed(caseId);
        if (notice?.status === 'failed') sink.failed(caseId, notice.messages, notice.durationMs);
        else if (notice?.status === 'errored') sink.errored(caseId, notice.messages, notice.durationMs);
      }
    }
    context.observers.onComparison?.(configFile, comparison, run);
    context.observers.onRunEnd(
      configFile,
      mapped,
      reportFile,
      run,
      reportFile === undefined ? undefined : exit.reportJson,
    );
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    cancelListener.dispose();
    cli.cancel();
  }
}

/**
 * Whether to run, as runDecision.ts decides: a save runs only what spends nothing (unless opted in,
 * in a trusted workspace); a run needing more judge calls than `evallens.confirmJudgeCallsAbove` asks
 * first. The plan comes from discovery's listing; only a listing without it (an older CLI) makes
 * `evallens plan` asked, and only when discovery does not already show the config is free; a CLI
 * without `plan` leaves discovery's view to decide.
 */
async function mayRun(
  request: ConfigRunRequest,
  context: ConfigRunContext,
  cwd: string,
  say: (text: string) => void,
): Promise<boolean> {
  const name = vscode.workspace.asRelativePath(request.configFile);
  const trusted = vscode.workspace.isTrusted;
  const discovered = context.discovered;
  let plan: RunPlan | undefined;
  if (discovered?.plan !== undefined) {
    plan = planFromDiscovery(discovered, {
      caseIds: request.caseIds ?? [],
      ...(request.trials === undefined ? {} : { trials: request.trials }),
    });
  } else if (!freeByDiscovery(discovered)) {
    const planRequest = {
      configFile: request.configFile,
      caseIds: request.caseIds ?? [],
      untrusted: !trusted,
      ...(request.trials === undefined ? {} : { trials: request.trials }),
    };
    const answer = await fetchPlan(context.cliPath, planRequest, cwd);
    if (answer.ok) plan = answer.plan;
    else context.output.debug(`No run plan for ${name}: ${answer.reason}.`);
  }
  const { settings } = context;
  const runContext = {
    configName: name,
    fromSave: request.fromSave,
    trusted,
    costlyScorersOnSave: settings.runCostlyScorersOnSave,
    confirmJudgeCallsAbove: settings.confirmJudgeCallsAbove,
  };
  let decision = runDecision(runContext, discovered, plan);
  if (decision.kind === 'confirm' && plan?.estimate === undefined) {
    // Asking first: the CLI's plan adds the judges' tokens and cost (it renders the prompts), bounded.
    const answer = await fetchPlan(
      context.cliPath,
      {
        configFile: request.configFile,
        caseIds: request.caseIds ?? [],
        untrusted: !trusted,
        ...(request.trials === undefined ? {} : { trials: request.trials }),
      },
      cwd,
      ESTIMATE_TIMEOUT_MS,
    );
    if (answer.ok) decision = runDecision(runContext, discovered, answer.plan);
    else context.output.debug(`No estimate for ${name}: ${answer.reason}.`);
  }
  if (decision.kind === 'run') return true;
  if (decision.kind === 'refuse') {
    say(decision.message);
    return false;
  }
  const choice = await vscode.window.showWarningMessage(
    decision.question,
    { modal: true, detail: decision.detail },
    'Run',
  );
  if (choice !== 'Run') say(decision.declined);
  return choice === 'Run';
}

/** How long the confirmation waits for the CLI's estimate before it asks without one. */
const ESTIMATE_TIMEOUT_MS = 15_000;

/** The items a request covers, for states the CLI does not report (queued, skipped, config errors). */
export function requestedItems(
  tree: Pick<EvalTestTree, 'configItem' | 'caseItem'>,
  request: Pick<ConfigRunRequest, 'configFile' | 'caseIds'>,
): vscode.TestItem[] {
  const config = tree.configItem(request.configFile);
  if (config === undefined) return [];
  if (request.caseIds === undefined) {
    const all: vscode.TestItem[] = [];
    config.children.forEach((item) => all.push(item));
    return all.length === 0 ? [config] : all;
  }
  return request.caseIds.flatMap((id) => {
    const item = tree.caseItem(request.configFile, id);
    return item === undefined ? [] : [item];
  });
}

/** The cases a run will end, for the status bar's progress: the requested ids, else the listed readable cases. */
export function expectedCases(
  request: Pick<ConfigRunRequest, 'caseIds'>,
  discovered: DiscoveredConfig | undefined,
): number | undefined {
  if (request.caseIds !== undefined) return request.caseIds.length;
  return discovered?.cases.filter((c) => c.readError === undefined).length;
}

/**
 * The CLI's stderr kept for the message of a run that did not start: its start, where the config's
 * problems are printed (each at file:line:col), never a whole flood of it.
 */
export const MAX_KEPT_STDERR_CHARS = 64 * 1024;

function keptStart(kept: string, more: string): string {
  return kept.length >= MAX_KEPT_STDERR_CHARS ? kept : kept + more.slice(0, MAX_KEPT_STDERR_CHARS - kept.length);
}
