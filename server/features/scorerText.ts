/**
 * How a scorer is described in the editor, from its definition and schema only: in one line (its
 * score range and origin), and in full for hovers and completion documentation, which read in this
 * order: what it measures in a sentence, its options as a table (name, type, default, one line), the
 * options every scorer takes, then the rest of its description and an example. A `not-` key is
 * described as the negation of its scorer, with that scorer's options.
 */
import type { ScorerDefinition } from '../../core/scorers/scorer';
import { markdownTable } from './markdownText';
import { markdownCode as codeSpan } from '../../shared/text/markdown';
import {
  descriptionOf,
  markdownOf,
  requiredOptions,
  scorerOption,
  scorerOptions,
  summaryOf,
  typesOf,
  yamlValue,
  type JsonSchema,
} from './schemaFacts';

export function scaleText(definition: ScorerDefinition): string {
  const scale = definition.scale;
  return scale.kind === 'bounded' ? `score 0–${scale.max}` : `a count of ${scale.unit}`;
}

/** The sentence that says what a `not-` key does with the verdict of the scorer it negates. */
export function negationText(key: string, base: ScorerDefinition): string {
  return `Passes when \`${base.key}\` fails and fails when it passes (score 1 − its score); an error, timeout or skip stays as it is. \`${key}\` takes the options of \`${base.key}\`.`;
}

/**
 * The full description of a scorer as Markdown. `negates`: the scorer a `not-` key negates, whose
 * description then follows the negation's own sentence.
 */
export function scorerMarkdown(definition: ScorerDefinition, negates?: ScorerDefinition): string {
  const parts = [
    `**${definition.key}** — ${scaleText(definition)} · ${definition.origin}${negates === undefined ? '' : ` · negation of \`${negates.key}\``}`,
  ];
  if (negates !== undefined) parts.push(negationText(definition.key, negates));
  const summary = summaryOf(definition.schema);
  if (summary !== '') parts.push(negates === undefined ? summary : `\`${negates.key}\`: ${summary}`);
  const own = new Set(Object.keys((definition.schema['properties'] as object | undefined) ?? {}));
  const options = scorerOptions(definition).filter((o) => scorerOption(definition, o.name) !== undefined);
  const required = new Set(requiredOptions(definition));
  const rows = options
    .filter((o) => own.has(o.name))
    .map((o) => [
      codeSpan(o.name),
      typeText(o.schema),
      required.has(o.name) ? 'required' : defaultText(o.schema),
      summaryOf(o.schema) || descriptionOf(o.schema),
    ]);
  if (rows.length > 0) parts.push(markdownTable(['Option', 'Type', 'Default', 'Description'], rows));
  const common = options.filter((o) => !own.has(o.name)).map((o) => codeSpan(o.name));
  if (common.length > 0) parts.push(`Every scorer also takes ${common.join(', ')}.`);
  const rest = markdownOf(definition.schema);
  if (rest !== '' && rest !== summary) parts.push(`---\n\n${rest}`);
  const example = exampleOf(definition);
  if (example !== undefined) parts.push(`**Example**\n\n\`\`\`yaml\nscorers:\n  ${definition.key}:${example}\n\`\`\``);
  return parts.join('\n\n');
}

/** An option's type for a table cell: its values when it has a fixed set, else its JSON types. */
export function typeText(schema: JsonSchema): string {
  const values = schema['enum'];
  if (Array.isArray(values)) return values.map((v) => codeSpan(yamlValue(v))).join(', ');
  return typesOf(schema).join(' or ');
}

/** An option's default as code, or a dash when it has none. */
export function defaultText(schema: JsonSchema): string {
  return 'default' in schema ? codeSpan(yamlValue(schema['default'])) : '—';
}

function exampleOf(definition: ScorerDefinition): string | undefined {
  const examples = definition.schema['examples'];
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return undefined;
  const entries = Object.entries(first as Record<string, unknown>);
  return entries.length === 0 ? ' {}' : entries.map(([key, value]) => `\n    ${key}: ${yamlValue(value)}`).join('');
}
