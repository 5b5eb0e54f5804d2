import type { ReportSource } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';
import type { RunEvent } from '../../core/runner/events';
import { Output, writeChunk } from './output';
import type { Reporter, ReporterOptions } from './reporter';
import { evalhubResults } from './evalhubResults';

/**
 * `--reporter evalhub`: the run as the `results` section of an EvalHub job
 * (`schemas/evalhub-results.schema.json`): the job test, and one entry per benchmark judged by a
 * scorer that weighs each case on its own (evalhub_benchmark) with its metrics and, where EvalHub has
 * one, its test block. Written at the end of the run.
 */
export class EvalhubReporter implements Reporter {
  constructor(private readonly options: ReporterOptions) {}

  onEvent(_event: RunEvent): void {}

  async finish(report: ReportSource): Promise<void> {
    const byCase = new Set(report.head.scorers.filter((s) => s.jobScoreByCase === true).map((s) => s.name));
    const results: ScorerResult[] = [];
    for await (const result of report.results())
      if (byCase.has(result.scorer) && result.trial <= 1) results.push(result);
    const output = Output.open(this.options);
    try {
      await writeChunk(output.stream, `${JSON.stringify(evalhubResults(report.head.job.test, results), null, 2)}\n`);
    } finally {
      await output.close();
    }
  }
}
