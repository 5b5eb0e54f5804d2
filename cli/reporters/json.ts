import type { ReportCase, ReportSource, ScorerAggregate } from '../../core/report/report';
import { RESULT_STATUSES, type ScorerResult } from '../../core/result';
import type { RunEvent } from '../../core/runner/events';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { jsonPrintable } from '../../shared/text/printable';
import { Output, writeChunk } from './output';
import type { Reporter, ReporterOptions } from './reporter';
import { runVerdict, verdictField } from './verdict';

/** Lines are gathered up to about this many characters before one write. */
const BATCH = 64 * 1024;

/** The report (`schemas/report.schema.json`) as JSON, written at the end of the run. */
export class JsonReporter implements Reporter {
  constructor(private readonly options: ReporterOptions) {}

  onEvent(_event: RunEvent): void {}

  async finish(report: ReportSource): Promise<void> {
    if (report.file !== undefined && this.options.out !== undefined) {
      // The run folder has this very report already: copy the bytes rather than write them again.
      await copyReport(report.file, this.options.out);
      return;
    }
    const output = Output.open(this.options);
    try {
      await writeReportJson(report, output.stream);
    } finally {
      await output.close();
    }
  }
}

/**
 * Writes a report as JSON to `stream`, streaming its cases and results one line each, so memory stays
 * flat however many there are. Waits for 'drain' when the stream is full; does not end the stream.
 * Only the fields of the Report type are written, in its order. `comparison`, when given, writes the
 * report's last field's value (`run --baseline`: the comparison, cli/runBaseline.ts).
 */
export async function writeReportJson(
  source: ReportSource,
  stream: NodeJS.WritableStream,
  comparison?: (stream: NodeJS.WritableStream) => Promise<void>,
): Promise<void> {
  let buffer = reportJsonHead(source.head);
  const flush = async (): Promise<void> => {
    // C1, bidi and format characters spelled as \u escapes: the same JSON, inert in a terminal.
    await writeChunk(stream, jsonPrintable(buffer));
    buffer = '';
  };
  const items = async (texts: AsyncIterable<string>): Promise<void> => {
    let first = true;
    for await (const text of texts) {
      buffer += `${first ? '\n' : ',\n'}${text}`;
      first = false;
      if (buffer.length >= BATCH) await flush();
    }
  };
  await items(source.lines?.cases() ?? serialized(source.cases(), caseJson));
  buffer += REPORT_JSON_BETWEEN;
  await items(source.lines?.results() ?? serialized(source.results(), resultJson));
  buffer += reportJsonAfterResults(source.head);
  if (comparison !== undefined) {
    buffer += REPORT_JSON_COMPARISON;
    await flush();
    await comparison(stream);
  }
  buffer += REPORT_JSON_END;
  await flush();
}

/** Between the cases and the results of a report written by writeReportJson. */
export const REPORT_JSON_BETWEEN = '\n],\n"results":[';
/** Before the comparison (`run --baseline`), after reportJsonAfterResults. */
export const REPORT_JSON_COMPARISON = ',\n"comparison":';
/** The end of a report written by writeReportJson. */
export const REPORT_JSON_END = '\n}\n';

/** What follows the results of a report written by writeReportJson, up to the comparison or the end. */
export function reportJsonAfterResults(head: ReportSource['head']): string {
  // A report read from EvalBench's results says where its numbers come from.
  return head.imported === undefined ? '\n]' : `\n],\n"imported":${JSON.stringify(head.imported)}`;
}

/**
 * A report's text up to its first case, as writeReportJson writes it (before jsonPrintable): each
 * case, then REPORT_JSON_BETWEEN, each result, reportJsonAfterResults, [the comparison,] REPORT_JSON_END
 * follow; each case and result on a line of its own, after `\n` (the first) or `,\n`.
 */
export function reportJsonHead(head: ReportSource['head']): string {
  const fields: [string, unknown][] = [
    ['version', head.version],
    ['tool', { name: head.tool.name, version: head.tool.version }],
    ['runId', head.runId],
    ['configFile', head.configFile],
    ['startedAt', head.startedAt],
    ['finishedAt', head.finishedAt],
    ['durationMs', head.durationMs],
    ['cancelled', head.cancelled],
    ['numTrials', head.numTrials],
    [
      'summary',
      head.summary.missingCredentials === undefined
        ? pick(head.summary, ['passed', 'failed', 'errored', 'skipped', 'total'])
        : {
            ...pick(head.summary, ['passed', 'failed', 'errored', 'skipped', 'total']),
            missingCredentials: pick(head.summary.missingCredentials, ['results', 'reasons']),
          },
    ],
    ['job', head.job.test === undefined ? {} : { test: pick(head.job.test, ['score', 'threshold', 'pass']) }],
    // Said outright, so a reader need not work it out (a run that scored nothing is not a pass).
    ['verdict', verdictField(runVerdict(head))],
    // What the judges spent and the budget skipped (core/judge/budget.ts), when a scorer judges.
    ...(head.spend === undefined ? [] : [['spend', head.spend] as [string, unknown]]),
  ];
  let buffer = '{\n';
  for (const [key, value] of fields) buffer += `${JSON.stringify(key)}:${JSON.stringify(value)},\n`;
  buffer += '"scorers":[';
  head.scorers.forEach((scorer, i) => {
    buffer += `${i === 0 ? '\n' : ',\n'}${JSON.stringify(scorerJson(scorer))}`;
  });
  buffer += '\n],\n"cases":[';
  return buffer;
}

async function copyReport(from: string, to: string): Promise<void> {
  try {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
  } catch (e) {
    throw new Error(`cannot write ${to}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

async function* serialized<T>(items: AsyncIterable<T>, shape: (item: T) => object): AsyncIterable<string> {
  for await (const item of items) yield JSON.stringify(shape(item));
}

/** The listed keys of an object, in that order, leaving out undefined values. */
function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

function scorerJson(s: ScorerAggregate): object {
  return {
    ...pick(s, ['name', 'key', 'origin']),
    scale: s.scale.kind === 'bounded' ? { kind: 'bounded', max: s.scale.max } : { kind: 'count', unit: s.scale.unit },
    ...pick(s, ['threshold', 'weight', 'lowerIsBetter', 'jobScoreByCase']),
    counts: pick(s.counts, RESULT_STATUSES),
    ...pick(s, ['meanScore', 'passRate']),
    ...(s.test === undefined
      ? {}
      : { test: pick(s.test, ['primary_score', 'primary_score_metric', 'threshold', 'lower_is_better', 'pass']) }),
    ...pick(s, [
      'stderr',
      'ci_low',
      'ci_high',
      'mde',
      'cases',
      'clustered',
      'too_wide',
      'pass_rate_ci_low',
      'pass_rate_ci_high',
      'pass_rate_too_wide',
    ]),
  };
}

function caseJson(c: ReportCase): ReportCase {
  const location = { file: c.location.file, line: c.location.line, column: c.location.column };
  const t = c.trials;
  const trials =
    t === undefined
      ? {}
      : {
          trials: {
            trials: t.trials,
            passed: t.passed,
            passRate: t.passRate,
            passAtK: t.passAtK,
            passHatK: t.passHatK,
            ...pick(t, ['pass_rate', 'pass_rate_ci_low', 'pass_rate_ci_high', 'flaky', 'meets_min_pass_rate']),
          },
        };
  const fingerprint = c.fingerprint === undefined ? {} : { fingerprint: c.fingerprint };
  return { id: c.id, index: c.index, status: c.status, durationMs: c.durationMs, location, ...fingerprint, ...trials };
}

function resultJson(r: ScorerResult): object {
  return pick(r, [
    'caseId',
    'scorer',
    'trial',
    'status',
    'score',
    'passed',
    'reason',
    'durationMs',
    'details',
    'metrics',
    'cached',
  ]);
}
