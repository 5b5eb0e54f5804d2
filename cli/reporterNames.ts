// The reporter names, apart from cli/reporters/index.ts so that parsing the command line does not load the reporters.

/** The reporter names `--reporter` accepts, in the order usage errors list them. */
export const REPORTER_NAMES = ['console', 'json', 'jsonl', 'junit', 'csv', 'evalhub'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}
