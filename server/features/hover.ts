/**
 * Hover in a run config: on a scorer key (or a list entry's `type` value) what the scorer measures,
 * its score range and origin, its options with defaults and an example; on an option or a top-level
 * key, its description and default. All of it from the schemas and the scorer's definition.
 */
import { MarkupKind, type Hover, type Range } from 'vscode-languageserver';
import type { Span } from '../../core/config/yamlOutline';
import type { ScorerDefinition } from '../../core/scorers/scorer';
import type { ConfigAnalysis } from '../analysis/configAnalysis';
import { locate, scorerEntryAt } from './outlineQuery';
import { configSchemaAt, descriptionOf, markdownOf, scorerOption, scorerOptions, typesOf, yamlValue, type JsonSchema } from './schemaFacts';
import { scaleText } from './scorerText';
import { markdownCode } from '../../shared/text/markdown';

export interface HoverAnswer {
  readonly markdown: string;
  readonly span: Span;
}

export function hoverAt(analysis: ConfigAnalysis, offset: number): HoverAnswer | undefined {
  const found = locate(analysis.outline, offset);
  if (found === undefined) return undefined;
  const entry = scorerEntryAt(analysis.outline, offset);
  const inScorers = found.path[0] === 'scorers' && entry !== undefined;
  if (inScorers) {
    const definition = analysis.registry.get(entry.key);
    if (definition === undefined) return undefined;
    const onScorerKey = (found.on === 'key' && !entry.listForm && found.path.length === 2) || (entry.listForm && found.path.length === 3 && found.path[2] === 'type');
    if (onScorerKey) return { markdown: scorerMarkdown(definition), span: entry.keySpan };
    const optionName = found.path[2];
    if (found.on === 'key' && found.path.length === 3 && typeof optionName === 'string' && found.entry !== undefined) {
      const option = scorerOption(definition, optionName);
      return option === undefined ? undefined : { markdown: optionMarkdown(optionName, option), span: found.entry.keySpan };
    }
    return undefined;
  }
  if (found.on !== 'key' || found.entry === undefined) return undefined;
  const schema = configSchemaAt(found.path);
  return schema === undefined ? undefined : { markdown: optionMarkdown(String(found.path[found.path.length - 1]), schema), span: found.entry.keySpan };
}

export function toHover(answer: HoverAnswer, rangeOf: (span: Span) => Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: answer.markdown }, range: rangeOf(answer.span) };
}

function scorerMarkdown(definition: ScorerDefinition): string {
  const parts = [`**${definition.key}** — ${scaleText(definition)} · ${definition.origin}`, markdownOf(definition.schema)];
  const options = scorerOptions(definition).filter((o) => scorerOption(definition, o.name) !== undefined);
  const own = new Set(Object.keys((definition.schema['properties'] as object | undefined) ?? {}));
  const lines = options.filter((o) => own.has(o.name)).map((o) => `- ${markdownCode(o.name)}${typeText(o.schema)}${defaultText(o.schema)} — ${descriptionOf(o.schema)}`);
  if (lines.length > 0) parts.push(`**Options**\n\n${lines.join('\n')}`);
  parts.push(`Every scorer also takes ${options.filter((o) => !own.has(o.name)).map((o) => markdownCode(o.name)).join(', ')}.`);
  const example = exampleOf(definition);
  if (example !== undefined) parts.push(`**Example**\n\n\`\`\`yaml\nscorers:\n  ${definition.key}:${example}\n\`\`\``);
  return parts.join('\n\n');
}

function exampleOf(definition: ScorerDefinition): string | undefined {
  const examples = definition.schema['examples'];
  const first: unknown = Array.isArray(examples) ? examples[0] : undefined;
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return undefined;
  const entries = Object.entries(first as Record<string, unknown>);
  return entries.length === 0 ? ' {}' : entries.map(([key, value]) => `\n    ${key}: ${yamlValue(value)}`).join('');
}

function optionMarkdown(name: string, schema: JsonSchema): string {
  return [`**${name}**${typeText(schema)}${defaultText(schema)}`, markdownOf(schema) || descriptionOf(schema)].filter((s) => s !== '').join('\n\n');
}

function typeText(schema: JsonSchema): string {
  const types = typesOf(schema);
  const values = schema['enum'];
  if (Array.isArray(values)) return ` (${values.map((v) => yamlValue(v)).join(' | ')})`;
  return types.length === 0 ? '' : ` (${types.join(' or ')})`;
}

function defaultText(schema: JsonSchema): string {
  return 'default' in schema ? `, default ${markdownCode(yamlValue(schema['default']))}` : '';
}
