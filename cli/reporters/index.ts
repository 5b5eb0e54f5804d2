import { ConsoleReporter } from './console';
import { CsvReporter } from './csv';
import { EvalhubReporter } from './evalhub';
import { JsonReporter } from './json';
import { JsonlReporter } from './jsonl';
import { JunitReporter } from './junit';
import type { Reporter, ReporterOptions } from './reporter';

import { isReporterName, REPORTER_NAMES, type ReporterName } from '../reporterNames';
export { isReporterName, REPORTER_NAMES, type ReporterName };

/** The reporter of that name, writing to `options.out` or standard output. */
export function createReporter(name: ReporterName, options: ReporterOptions): Reporter {
  switch (name) {
    case 'console':
      return new ConsoleReporter(options);
    case 'json':
      return new JsonReporter(options);
    case 'jsonl':
      return new JsonlReporter(options);
    case 'junit':
      return new JunitReporter(options);
    case 'csv':
      return new CsvReporter(options);
    case 'evalhub':
      return new EvalhubReporter(options);
  }
}

export type { Reporter, ReporterOptions } from './reporter';
export { writeReportJson } from './json';
export { runVerdict, type RunVerdict } from './verdict';
