import type { DatasetRecord } from '../case';
import type { RunConfig } from '../config/runConfig';
import { caseFromValue } from '../dataset/caseFromValue';
import { CaseIdTracker, positionalId } from '../dataset/caseIdTracker';
import type { CaseSelection } from '../dataset/caseSelection';
import { MAX_CASE_CHARS } from '../dataset/jsonStream';
import { datasetFormat, openDataset } from '../dataset/open';
import type { DatasetSource } from '../dataset/source';
import { linesOf } from '../dataset/textLines';
import { datasetBytes } from '../dataset/textFile';

/** A config's cases in order: its inline `cases:` first, then its dataset file, streamed. */
export async function* caseRecords(config: RunConfig): AsyncIterable<DatasetRecord> {
  const ids = new CaseIdTracker();
  for (const inline of config.inlineCases) {
    yield caseFromValue(
      inline.value,
      {
        range: inline.range,
        index: inline.index,
        positionalId: positionalId('case', inline.index + 1),
        subject: 'this case',
        vocabulary: 'yaml',
      },
      ids,
    );
  }
  if (config.dataset !== undefined) yield* openDataset(config.dataset);
}

/**
 * How many records `caseRecords(config)` yields, counted without reading a case, when that is cheap:
 * a JSON Lines dataset (one record per line that is not blank, as readJsonl reads it) and the inline
 * cases, with no selection. `undefined` otherwise (other formats, EvalBench filters, `--case`,
 * `--filter`), where only reading the cases can tell. A line that is not a valid case is a record
 * too (it ends as an `errored` case). The progress line's total: parsing every case once more
 * before the run cost as much as a fifth of the run.
 */
export async function recordCountWithoutReading(
  config: RunConfig,
  selection: CaseSelection,
): Promise<number | undefined> {
  if ((selection.ids?.length ?? 0) > 0 || selection.filter !== undefined) return undefined;
  const source = config.dataset;
  if (source === undefined) return config.inlineCases.length;
  if (source.nl2sql !== undefined || source.caseIds !== undefined || !isJsonl(source)) return undefined;
  let count = config.inlineCases.length;
  for await (const line of linesOf(datasetBytes(source), MAX_CASE_CHARS))
    if (line.overLength !== undefined || line.text.trim() !== '') count += 1;
  return count;
}

function isJsonl(source: DatasetSource): boolean {
  try {
    return datasetFormat(source) === 'jsonl';
  } catch {
    return false;
  }
}
