import type { Problem } from '../problem';
import type { InlineCase } from './runConfig';
import type { YamlSource } from './yamlSource';
import { displayLine } from '../../shared/text/displayPosition';

/**
 * Inline cases whose `id` an earlier inline case already has, each on its `id` value: the runner
 * would make the second one an error record, so the editor says so while it is typed. Ids compare
 * as strings, as the dataset readers compare them (`1` and `"1"` are the same case).
 */
export function duplicateInlineIds(source: YamlSource, cases: readonly InlineCase[]): Problem[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  for (const inline of cases) {
    const value = inline.value;
    const raw =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)['id']
        : undefined;
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const id = String(raw);
    const range = source.valueRange(['cases', inline.index, 'id']);
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, range.start.line);
      continue;
    }
    problems.push({
      code: 'duplicate-case-id',
      severity: 'error',
      message: `duplicate case id "${id}": the case at line ${displayLine(earlier)} has it already; case ids must be unique`,
      range,
    });
  }
  return problems;
}
