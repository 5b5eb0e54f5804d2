// `--fail-on` values, apart from cli/compare.ts so that parsing the command line does not load the comparison.
export const FAIL_ON = ['regression', 'any-change', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];
