import type { Problem } from '../problem';
import type { SourceRange } from '../text/position';
import { closestNames, didYouMean } from './closest';
import {
  evalbenchKey,
  REPORTERS_NOT_RUN,
  REPORTING_READ,
  SCORER_PREFIXES_NOT_RUN,
  SCORERS_NOT_RUN,
} from './evalbenchKeys';
import type { YamlSource } from './yamlSource';
import { isObject } from '../../shared/isObject';

/**
 * What EvalLens says about the EvalBench keys of a config it does not honour, from the key table
 * (`evalbenchKeys.json`): one information notice per key whose work it does not run, one warning per
 * key that changes EvalBench's scores and that it cannot honour (saying what differs), and, in an
 * EvalBench config, one information notice per key neither knows (EvalBench ignores those; a near
 * miss of a known key is a warning with the suggestion).
 */
export function evalbenchKeyNotices(
  source: YamlSource,
  data: Readonly<Record<string, unknown>>,
  context: { readonly isEvalbench: boolean; readonly knownKeys: readonly string[] },
): Problem[] {
  const problems: Problem[] = [];
  for (const key of Object.keys(data)) {
    const entry = evalbenchKey(key);
    const range = source.keyRange([key]);
    if (entry === undefined) {
      if (!context.isEvalbench || context.knownKeys.includes(key)) continue;
      const suggestions = closestNames(key, context.knownKeys);
      problems.push({
        code: 'evalbench-key-unknown',
        severity: suggestions.length > 0 ? 'warning' : 'information',
        message: `neither EvalLens nor EvalBench reads the key "${key}" (EvalBench ignores keys it does not know, and so does EvalLens)${didYouMean(suggestions)}`,
        range,
        ...(suggestions.length > 0 ? { suggestions } : {}),
      });
    } else if (entry.handling === 'not-run') {
      problems.push(notRun(key, entry.what ?? key, range));
    } else if (entry.handling === 'differs') {
      problems.push({
        code: 'evalbench-key-differs',
        severity: 'warning',
        message: `EvalLens does not apply EvalBench's ${entry.what ?? key} (${key}), so its scores can differ from EvalBench's: ${entry.differs ?? 'EvalLens ignores the key'}`,
        range,
      });
    }
  }
  const reporting = data['reporting'];
  if (isObject(reporting)) {
    for (const [key, value] of Object.entries(reporting)) {
      if (REPORTING_READ.has(key)) continue;
      const what =
        REPORTERS_NOT_RUN[key] ??
        (isObject(value) && value['delegated'] === true ? 'remote reporting' : `${key} reporting`);
      problems.push(notRun(`reporting.${key}`, what, source.keyRange(['reporting', key])));
    }
  }
  return problems;
}

function notRun(path: string, what: string, range: SourceRange): Problem {
  return {
    code: 'evalbench-key-not-run',
    severity: 'information',
    message: `EvalLens does not run EvalBench's ${what} (${path}); it scores recorded outputs — the key is accepted and ignored`,
    range,
  };
}

/** Whether EvalBench has this scorer and EvalLens does not run it: by name, or by family prefix (`dataform_`, `dbt_`, `mcp_`). */
export function isEvalbenchScorerNotRun(key: string): boolean {
  return Object.hasOwn(SCORERS_NOT_RUN, key) || SCORER_PREFIXES_NOT_RUN.some((prefix) => key.startsWith(prefix));
}

/** What an EvalBench scorer EvalLens does not run does, for its notice. */
export function evalbenchScorerWork(key: string): string | undefined {
  return Object.hasOwn(SCORERS_NOT_RUN, key) ? SCORERS_NOT_RUN[key] : undefined;
}

/**
 * The paths whose values EvalLens never uses: the keys it does not run or does not know (in an
 * EvalBench config), the reporters it does not run, and the entries of scorers it does not run
 * (mapping or list form). Unset `${VAR}`s inside them are not errors (see `withoutUnusedVariables`).
 */
export function unusedValuePaths(
  data: Readonly<Record<string, unknown>>,
  context: {
    readonly isEvalbench: boolean;
    readonly knownKeys: readonly string[];
    readonly scorerRuns: (key: string) => boolean;
  },
): (string | number)[][] {
  const paths: (string | number)[][] = [];
  for (const key of Object.keys(data)) {
    const entry = evalbenchKey(key);
    if (entry !== undefined ? entry.handling !== 'read' : context.isEvalbench && !context.knownKeys.includes(key))
      paths.push([key]);
  }
  const reporting = data['reporting'];
  if (isObject(reporting))
    paths.push(
      ...Object.keys(reporting)
        .filter((key) => !REPORTING_READ.has(key))
        .map((key) => ['reporting', key]),
    );
  const scorers = data['scorers'];
  if (context.isEvalbench) {
    const leftOut = (key: unknown) =>
      typeof key === 'string' && !context.scorerRuns(key) && isEvalbenchScorerNotRun(key);
    if (isObject(scorers))
      paths.push(
        ...Object.keys(scorers)
          .filter(leftOut)
          .map((key) => ['scorers', key]),
      );
    if (Array.isArray(scorers))
      scorers.forEach((item: unknown, i) => isObject(item) && leftOut(item['type']) && paths.push(['scorers', i]));
  }
  return paths;
}

/**
 * Drops the unresolved-`${VAR}` errors inside the values EvalLens never uses
 * (`model_config: !ENV …/${CI_HARNESS}_model.yaml`, a scorer it does not run): EvalBench's loader does
 * not fail on them either. Every other problem stays.
 */
export function withoutUnusedVariables(
  problems: readonly Problem[],
  source: YamlSource,
  paths: readonly (readonly (string | number)[])[],
): Problem[] {
  if (paths.length === 0) return [...problems];
  const unused = paths.map((path) => source.valueRange(path));
  const inside = (range: SourceRange) =>
    unused.some((outer) => outer.start.offset <= range.start.offset && range.end.offset <= outer.end.offset);
  return problems.filter((problem) => problem.code !== 'unresolved-variable' || !inside(problem.range));
}
