import type { DatasetRecord } from '../case';
import type { RunConfig } from '../config/runConfig';
import { caseFromValue } from '../dataset/caseFromValue';
import { CaseIdTracker, positionalId } from '../dataset/caseIdTracker';
import { openDataset } from '../dataset/open';

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
