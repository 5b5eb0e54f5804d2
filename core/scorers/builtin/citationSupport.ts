import type { Json } from '../../case';
import { fail, inconclusive, pass, unsupported, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/citation_support.schema.json';
import { kindOf } from '../support/describe';
import { retrievedIds } from '../support/retrievedIds';
import { count, formatRatio, noRetrieval, readTrace } from '../support/traceSteps';
import { defineScorer, prepared } from '../scorer';

/**
 * The share of the document ids the answer cites that were retrieved for it. Passes only when every
 * cited id was retrieved (score 1); a configured threshold takes over the pass decision.
 */
export const citationSupport = defineScorer('citation_support', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create() {
    return prepared({
      score({ case: evalCase, output }) {
        const read = readTrace(evalCase);
        if (!read.ok) return read.verdict;
        const cited = citedIds(read.trace.citations, output);
        if (!cited.ok) return cited.verdict;
        const retrieved = retrievedIds(read.trace);
        const sources: { [key: string]: Json } = {
          citations_from: cited.source,
          retrieved_from: {
            retrieval_steps: retrieved.steps,
            ids_listed: retrieved.listed,
            distinct_ids: retrieved.ids.length,
          },
        };
        if (cited.ids.length === 0)
          return inconclusive(
            `the answer cites no document (${cited.source} is an empty list); there is nothing to support`,
            sources,
          );
        if (retrieved.steps === 0)
          return unsupported(
            `${noRetrieval(read.trace)}; the ${count(cited.ids.length, 'cited document')} cannot be checked`,
            sources,
          );

        const pool = new Set(retrieved.ids);
        const supported = cited.ids.filter((id) => pool.has(id));
        const unsupportedIds = cited.ids.filter((id) => !pool.has(id));
        const score = supported.length / cited.ids.length;
        const details: { [key: string]: Json } = {
          cited: cited.ids.length,
          supported: supported.length,
          retrieved: retrieved.ids.length,
          cited_ids: cited.ids,
          unsupported_ids: unsupportedIds,
          ...sources,
        };
        if (unsupportedIds.length === 0) {
          return pass(
            `all ${count(cited.ids.length, 'cited document id')} ${cited.ids.length === 1 ? 'was' : 'were'} retrieved for the answer (${count(retrieved.ids.length, 'distinct id')} retrieved)`,
            1,
            details,
          );
        }
        return fail(
          `${unsupportedIds.length} of the ${count(cited.ids.length, 'cited document id')} ${unsupportedIds.length === 1 ? 'was' : 'were'} not retrieved for the answer (support ${formatRatio(score)}; ${count(retrieved.ids.length, 'distinct id')} retrieved); the ids are in details`,
          score,
          details,
        );
      },
    });
  },
});

/**
 * The cited ids: the trace's recorded citations, else the output's `citations` list. No citation
 * record at all is unsupported; an output `citations` of the wrong type fails (nothing is converted).
 * Duplicates count once.
 */
function citedIds(
  fromTrace: readonly string[] | undefined,
  output: Json | undefined,
): { ok: true; ids: string[]; source: string } | { ok: false; verdict: ScorerVerdict } {
  if (fromTrace !== undefined) return { ok: true, ids: [...new Set(fromTrace)], source: 'the trace citations' };
  const list =
    output !== null &&
    typeof output === 'object' &&
    !Array.isArray(output) &&
    Object.prototype.hasOwnProperty.call(output, 'citations')
      ? (output as { readonly [key: string]: Json })['citations']
      : undefined;
  if (list === undefined) {
    return {
      ok: false,
      verdict: unsupported(
        `the case records no citations: the trace has none and the output (${kindOf(output)}) has no \`citations\` list`,
      ),
    };
  }
  if (!Array.isArray(list))
    return {
      ok: false,
      verdict: fail(`the output's \`citations\` is ${kindOf(list)}, not a list of document ids; nothing is converted`),
    };
  const items = list as readonly Json[];
  const wrong = items.findIndex((item) => typeof item !== 'string');
  if (wrong >= 0)
    return {
      ok: false,
      verdict: fail(
        `the output's \`citations\` item ${wrong + 1} is ${kindOf(items[wrong])}, not a document id (a string); nothing is converted`,
      ),
    };
  return { ok: true, ids: [...new Set(items as readonly string[])], source: "the output's `citations`" };
}
