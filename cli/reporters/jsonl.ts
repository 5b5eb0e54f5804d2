import type { ReportSource } from '../../core/report/report';
import type { RunEvent } from '../../core/runner/events';
import { encodeEvent } from '../../protocol/runEvents';
import { jsonPrintable } from '../../shared/text/printable';
import { Output } from './output';
import type { Reporter, ReporterOptions } from './reporter';

/**
 * The run's event stream as JSON Lines, one event per line as it happens: the protocol the VS Code
 * extension reads from the CLI's standard output.
 */
export class JsonlReporter implements Reporter {
  private readonly output: Output;

  constructor(options: ReporterOptions) {
    this.output = Output.open(options);
  }

  onEvent(event: RunEvent): void {
    // The same events, with C1, bidi and format characters spelled as \u escapes: inert in a terminal.
    this.output.stream.write(jsonPrintable(encodeEvent(event)));
  }

  async finish(_report: ReportSource): Promise<void> {
    await this.output.close();
  }
}
