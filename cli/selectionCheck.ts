/**
 * `--case` and `--filter` checked against the dataset before anything runs: an id the dataset does not
 * have, or a selection no case matches, is a usage error (exit 2) naming what was asked and the nearest
 * ids, never a green run of nothing. The dataset is streamed once; only a few candidate ids per unknown
 * id are kept, so the check's memory does not grow with the dataset.
 */
import { closestNames } from '../core/config/closest';
import type { DatasetRecord } from '../core/case';
import { caseSelector, type CaseSelection } from '../core/dataset/caseSelection';
import { compileGlob } from '../core/text/glob';

/** How many near ids a refusal lists. */
const SUGGESTIONS = 3;
/** Ids gathered before the nearest are picked from them and the rest dropped. */
const BATCH = 1000;

/** The refusal to print (one line each), or none when the selection names real cases and matches some. */
export async function checkSelection(
  records: AsyncIterable<DatasetRecord>,
  configPath: string,
  selection: CaseSelection,
): Promise<string[]> {
  const ids = selection.ids ?? [];
  if (ids.length === 0 && selection.filter === undefined) return [];
  const wanted = new Set(ids);
  const found = new Set<string>();
  const glob = selection.filter === undefined ? undefined : compileGlob(selection.filter);
  const selected = caseSelector(selection);
  let matchedFilter = 0;
  let matchedSelection = 0;
  let total = 0;
  // Near ids for the suggestions: the nearest so far plus the current batch, re-picked per batch.
  let near: string[] = [];
  let batch: string[] = [];
  const filterProbe = selection.filter === undefined ? undefined : globText(selection.filter);
  const probes = [...wanted, ...(filterProbe === undefined || filterProbe === '' ? [] : [filterProbe])];
  const pick = (): void => {
    const candidates = [...new Set([...near, ...batch])];
    near = [...new Set(probes.flatMap((probe) => closestNames(probe, candidates, SUGGESTIONS)))];
    batch = [];
  };
  for await (const record of records) {
    const id = record.ok ? record.value.case.id : record.error.id;
    total++;
    if (wanted.has(id)) found.add(id);
    if (glob?.test(id) === true) matchedFilter++;
    if (selected(id)) matchedSelection++;
    batch.push(id);
    if (batch.length >= BATCH) pick();
  }
  pick();

  const problems: string[] = [];
  const help = `\`evallens validate ${configPath} --cases\` lists the ids`;
  for (const id of ids) {
    if (found.has(id)) continue;
    problems.push(
      `--case ${JSON.stringify(id)}: the dataset has no case with this id (${total} case${total === 1 ? '' : 's'})${suggest(closestNames(id, near, SUGGESTIONS))}; ${help}`,
    );
  }
  if (selection.filter !== undefined && matchedFilter === 0) {
    const hint =
      filterProbe === undefined || filterProbe === '' ? '' : suggest(closestNames(filterProbe, near, SUGGESTIONS));
    problems.push(
      `--filter ${JSON.stringify(selection.filter)}: no case id matches (${total} case${total === 1 ? '' : 's'}; * is any text, ? one character)${hint}; ${help}`,
    );
  }
  if (problems.length === 0 && matchedSelection === 0) {
    problems.push(
      `--case and --filter together select no case: none of the ids given matches ${JSON.stringify(selection.filter ?? '')}`,
    );
  }
  return problems;
}

function suggest(ids: readonly string[]): string {
  if (ids.length === 0) return '';
  return `; did you mean ${ids.map((id) => JSON.stringify(id)).join(', ')}?`;
}

/** A glob's literal text (wildcards and classes left out), for finding ids near it. */
function globText(glob: string): string {
  return glob.replace(/\[[^\]]*\]|[*?]/g, '');
}
