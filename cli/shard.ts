/**
 * The CLI side of `evallens run --shard`: the dataset's records narrowed to one shard (core/runner/
 * shard.ts decides where a case belongs), and what the run folder records so that `evallens merge`
 * can check that shards belong together.
 */
import type { DatasetRecord } from '../core/case';
import type { RunConfig } from '../core/config/runConfig';
import { inShard, shardLabel, type Shard } from '../core/runner/shard';
import { fingerprintOf, type RunDescription } from './runInfo';

/** The records of the cases in `shard`, in dataset order, each keeping its dataset index. */
export async function* shardRecords(records: AsyncIterable<DatasetRecord>, shard: Shard): AsyncIterable<DatasetRecord> {
  for await (const record of records) {
    const id = record.ok ? record.value.case.id : record.error.id;
    if (inShard(id, shard)) yield record;
  }
}

/** The run's fingerprints, shard and selection, for its run.json. */
export async function describeRun(
  config: RunConfig,
  command: { readonly shard?: Shard; readonly caseIds: readonly string[]; readonly filter?: string },
): Promise<RunDescription> {
  return {
    fingerprint: await fingerprintOf(config),
    ...(command.shard === undefined ? {} : { shard: shardLabel(command.shard) }),
    selection: {
      ...(command.caseIds.length === 0 ? {} : { ids: [...command.caseIds].sort() }),
      ...(command.filter === undefined ? {} : { filter: command.filter }),
    },
  };
}
