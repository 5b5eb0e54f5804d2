import type { Json } from '../../case';
import { error, fail, pass } from '../../result';
import schema from '../../../schemas/scorers/required_artifacts.schema.json';
import { kindOf } from '../support/describe';
import { defineScorer, prepared } from '../scorer';

interface RequiredArtifact {
  readonly kind: string;
  readonly name: string;
  readonly sha256?: string;
}

/** Where a case reports artifacts, in the order they are searched. */
type Source = 'output' | 'metadata' | 'trace';

interface Reported {
  readonly kind: string;
  readonly name: string;
  readonly sha256?: string;
  readonly source: Source;
}

type ListRead =
  | { readonly ok: true; readonly items: readonly Reported[]; readonly present: boolean }
  | { readonly ok: false; readonly problem: string };

type Problem = 'not_reported' | 'digest_missing' | 'digest_malformed' | 'digest_mismatch';

interface Failure {
  readonly required: RequiredArtifact;
  readonly problem: Problem;
  readonly found?: Reported;
}

const NAMED_IN_REASON = 5;
const SHA256_HEX = /^[0-9a-f]{64}$/i;
const SOURCE_NAMES: { readonly [source in Source]: string } = {
  output: 'the output',
  metadata: 'the case metadata',
  trace: 'the trace',
};

/**
 * Passes when the case reports every required artifact (by kind and name, with a matching sha256 when
 * the requirement gives one). It reads what the case reports and fetches nothing.
 */
export const requiredArtifacts = defineScorer('required_artifacts', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create(options) {
    const required = options.artifacts.map((a) =>
      a.sha256 === undefined ? a : { ...a, sha256: a.sha256.toLowerCase() },
    );
    return prepared({
      score({ output, case: evalCase }) {
        const fromOutput = readList(Array.isArray(output) ? output : fieldOf(output, 'artifacts'), 'output');
        const fromMetadata = readList(fieldOf(evalCase.metadata, 'artifacts'), 'metadata');
        const fromTrace = readList(fieldOf(evalCase.trace, 'artifacts'), 'trace');
        // A bad dataset value means no decision; a bad recorded list is the candidate's failure.
        if (!fromMetadata.ok) return error(`the case metadata's artifacts list is malformed: ${fromMetadata.problem}`);
        if (!fromOutput.ok) return fail(`the output's artifacts list is malformed: ${fromOutput.problem}`);
        if (!fromTrace.ok) return fail(`the trace's artifacts list is malformed: ${fromTrace.problem}`);

        // The first entry per kind and name, in search order, is the one checked.
        const first = new Map<string, Reported>();
        for (const item of [...fromOutput.items, ...fromMetadata.items, ...fromTrace.items]) {
          const key = identity(item.kind, item.name);
          if (!first.has(key)) first.set(key, item);
        }
        const failures: Failure[] = [];
        for (const want of required) {
          const found = first.get(identity(want.kind, want.name));
          if (found === undefined) failures.push({ required: want, problem: 'not_reported' });
          else if (want.sha256 !== undefined) {
            if (found.sha256 === undefined) failures.push({ required: want, problem: 'digest_missing', found });
            else if (!SHA256_HEX.test(found.sha256))
              failures.push({ required: want, problem: 'digest_malformed', found });
            else if (found.sha256.toLowerCase() !== want.sha256)
              failures.push({ required: want, problem: 'digest_mismatch', found });
          }
        }

        const total = required.length;
        const searched = (
          [
            ['output', fromOutput],
            ['metadata', fromMetadata],
            ['trace', fromTrace],
          ] as const
        )
          .filter(([, list]) => list.present)
          .map(([source]) => source);
        const details: { [key: string]: Json } = {
          satisfied: total - failures.length,
          total,
          lists_found: searched,
          unsatisfied: failures.map(detailOf),
        };
        if (failures.length === 0) {
          return pass(
            `the case reports all ${total} required artifact${total === 1 ? '' : 's'}${required.some((r) => r.sha256 !== undefined) ? ' with matching digests' : ''}`,
            1,
            details,
          );
        }
        const where = searched.length === 0 ? ' (the case reports no artifacts list)' : '';
        const named = failures.slice(0, NAMED_IN_REASON).map(describeFailure);
        const more = failures.length > NAMED_IN_REASON ? `; and ${failures.length - NAMED_IN_REASON} more` : '';
        return fail(
          `${failures.length} of ${total} required artifact${total === 1 ? '' : 's'} ${failures.length === 1 ? 'is' : 'are'} not satisfied${where}: ${named.join('; ')}${more}`,
          0,
          details,
        );
      },
    });
  },
});

function fieldOf(value: Json | undefined, key: string): Json | undefined {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as { readonly [key: string]: Json };
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Reads a reported list: a list of objects with string `kind` and `name` and an optional string `sha256`. */
function readList(value: Json | undefined, source: Source): ListRead {
  if (value === undefined) return { ok: true, items: [], present: false };
  if (!Array.isArray(value)) return { ok: false, problem: `it is ${kindOf(value)}, not a list` };
  const items: Reported[] = [];
  for (const [index, item] of (value as readonly Json[]).entries()) {
    const at = `item ${index + 1}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return { ok: false, problem: `${at} is ${kindOf(item)}, not an object` };
    const record = item as { readonly [key: string]: Json };
    const kind = fieldOf(record, 'kind');
    const name = fieldOf(record, 'name');
    const sha256 = fieldOf(record, 'sha256');
    if (typeof kind !== 'string') return { ok: false, problem: notAString(at, 'kind', kind) };
    if (typeof name !== 'string') return { ok: false, problem: notAString(at, 'name', name) };
    if (sha256 !== undefined && typeof sha256 !== 'string')
      return { ok: false, problem: notAString(at, 'sha256', sha256) };
    items.push(sha256 === undefined ? { kind, name, source } : { kind, name, sha256, source });
  }
  return { ok: true, items, present: true };
}

function notAString(at: string, field: string, value: Json | undefined): string {
  return value === undefined
    ? `${at} has no \`${field}\``
    : `${at} has a \`${field}\` that is ${kindOf(value)}, not a string`;
}

function identity(kind: string, name: string): string {
  return `${kind}\u0000${name}`;
}

/** Kind and name are the requirement's (config), never reported values; no digest appears. */
function describeFailure(f: Failure): string {
  const label = `\`${f.required.name}\` (kind \`${f.required.kind}\`)`;
  const where = f.found === undefined ? '' : ` in ${SOURCE_NAMES[f.found.source]}`;
  switch (f.problem) {
    case 'not_reported':
      return `${label} is not reported`;
    case 'digest_missing':
      return `${label} is reported${where} without a sha256 digest`;
    case 'digest_malformed':
      return `${label} is reported${where} with a sha256 digest that is not 64 hex characters`;
    case 'digest_mismatch':
      return `${label} is reported${where} with a sha256 digest that does not match`;
  }
}

function detailOf(f: Failure): { [key: string]: Json } {
  const detail: { [key: string]: Json } = { kind: f.required.kind, name: f.required.name, problem: f.problem };
  if (f.found !== undefined) detail['source'] = f.found.source;
  if (f.required.sha256 !== undefined) detail['required_sha256'] = f.required.sha256;
  if (f.found?.sha256 !== undefined) detail['reported_sha256'] = f.found.sha256;
  return detail;
}
