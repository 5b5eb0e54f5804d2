import type { Json } from '../../case';
import { error, fail, inconclusive, pass, unsupported, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/retrieval_relevance.schema.json';
import { kindOf } from '../support/describe';
import { retrievedIds } from '../support/retrievedIds';
import { count, formatRatio, noRetrieval, readTrace } from '../support/traceSteps';
import { meets, passMarkOf } from '../support/unitThreshold';
import { defineScorer, prepared } from '../scorer';

type Metric = 'precision' | 'recall' | 'f1';

/** The pass mark when the config gives no `threshold`. */
export const RETRIEVAL_RELEVANCE_DEFAULT_THRESHOLD = 0.5;

const METRIC_NAMES: { readonly [m in Metric]: string } = { precision: 'precision', recall: 'recall', f1: 'F1' };

/**
 * Precision, recall or F1 at k of the trace's retrieved document ids against the case's labelled
 * relevant ids; passes when the chosen metric reaches the threshold (default 0.5). Undefined metrics
 * (nothing retrieved, nothing labelled) are inconclusive, never 0.
 */
export const retrievalRelevance = defineScorer('retrieval_relevance', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  defaultThreshold: RETRIEVAL_RELEVANCE_DEFAULT_THRESHOLD,
  schema,
  create(options) {
    const mark = passMarkOf(options, RETRIEVAL_RELEVANCE_DEFAULT_THRESHOLD);
    const { threshold } = mark;
    const metric = options.metric;
    const at = options.k === undefined ? '' : `@${options.k}`;
    const name = `${METRIC_NAMES[metric]}${at}`;

    return prepared({
      score({ case: evalCase, expected }) {
        const labels = relevantIds(expected, options.expected_path);
        if (!labels.ok) return labels.verdict;
        const read = readTrace(evalCase);
        if (!read.ok) return read.verdict;
        const retrieved = retrievedIds(read.trace);
        const sources: { [key: string]: Json } = {
          labels_from: labels.source,
          retrieved_from: {
            retrieval_steps: retrieved.steps,
            ids_listed: retrieved.listed,
            distinct_ids: retrieved.ids.length,
          },
        };
        if (retrieved.steps === 0) {
          return unsupported(noRetrieval(read.trace), sources);
        }
        if (labels.ids.length === 0) {
          return inconclusive(
            `no relevant document id is labelled for the case (${labels.source} is an empty list); ${name} is undefined`,
            sources,
          );
        }
        if (retrieved.ids.length === 0) {
          return inconclusive(
            `nothing was retrieved (${count(retrieved.steps, 'retrieval step')} with no document ids); ${name} is undefined, not 0`,
            sources,
          );
        }

        const top = options.k === undefined ? retrieved.ids : retrieved.ids.slice(0, options.k);
        const relevant = new Set(labels.ids);
        const hits = top.filter((id) => relevant.has(id));
        // P@k divides by k when k is given (IR convention: a short list is not excused); by the number
        // retrieved otherwise.
        const precisionOver = options.k ?? retrieved.ids.length;
        const precision = hits.length / precisionOver;
        const recall = hits.length / relevant.size;
        const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
        const value = metric === 'precision' ? precision : metric === 'recall' ? recall : f1;

        const details: { [key: string]: Json } = {
          metric,
          k: options.k ?? null,
          precision,
          recall,
          f1,
          hits: hits.length,
          precision_denominator: precisionOver,
          relevant_count: relevant.size,
          retrieved_count: retrieved.ids.length,
          threshold,
          retrieved_ids: top,
          relevant_ids: labels.ids,
          hit_ids: hits,
          ...sources,
        };
        const within =
          options.k === undefined
            ? `among the ${retrieved.ids.length} retrieved`
            : `in the top ${options.k} of ${retrieved.ids.length} retrieved`;
        const figures = `precision ${formatRatio(precision)}, recall ${formatRatio(recall)}: ${hits.length} of ${count(relevant.size, 'relevant id')} ${within}`;
        const shown = formatRatio(value, threshold);
        const markText = mark.lowerIsBetter ? `at most ${threshold}` : `at least ${threshold}`;
        return meets(value, mark)
          ? pass(`${name} ${shown} meets the pass threshold (${markText}; ${figures})`, value, details)
          : fail(`${name} ${shown} misses the pass threshold (${markText}; ${figures})`, value, details);
      },
    });
  },
});

/**
 * The labelled relevant ids: the expected value when it is a list, else its `relevant_ids` field.
 * A missing label or one of the wrong type is an error (the dataset is wrong); duplicates count once.
 */
function relevantIds(
  expected: Json | undefined,
  expectedPath: string | undefined,
): { ok: true; ids: string[]; source: string } | { ok: false; verdict: ScorerVerdict } {
  const root = expectedPath === undefined ? 'expected' : `the expected value at expected_path "${expectedPath}"`;
  if (expected === undefined)
    return {
      ok: false,
      verdict: error(
        'there is no expected value: the case needs its relevant document ids in `expected.relevant_ids` (or `expected` as a list)',
      ),
    };
  let list: Json | undefined = expected;
  let source = expectedPath === undefined ? '`expected`' : root;
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    const record = expected as { readonly [key: string]: Json };
    list = Object.prototype.hasOwnProperty.call(record, 'relevant_ids') ? record['relevant_ids'] : undefined;
    source = expectedPath === undefined ? '`expected.relevant_ids`' : `\`relevant_ids\` of ${root}`;
    if (list === undefined)
      return {
        ok: false,
        verdict: error(
          `${expectedPath === undefined ? 'the expected value' : root} is an object without \`relevant_ids\`; nothing to compare the retrieved ids with`,
        ),
      };
  }
  if (!Array.isArray(list))
    return {
      ok: false,
      verdict: error(`${source} is ${kindOf(list)}, not a list of relevant document ids; nothing is converted`),
    };
  const items = list as readonly Json[];
  const wrong = items.findIndex((item) => typeof item !== 'string');
  if (wrong >= 0)
    return {
      ok: false,
      verdict: error(
        `${source} item ${wrong + 1} is ${kindOf(items[wrong])}, not a document id (a string); nothing is converted`,
      ),
    };
  return { ok: true, ids: [...new Set(items as readonly string[])], source };
}
