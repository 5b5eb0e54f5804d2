/**
 * Hover in a run config: on a scorer key (or a list entry's `type` value, or a `not-` key) the
 * scorer's description (scorerText.ts: summary, options table, the rest); on an option or a top-level
 * key, its description and default. All of it from the schemas and the scorer's definition.
 */
import { MarkupKind, type Hover, type Range } from 'vscode-languageserver';
import type { Span } from '../../core/config/yamlOutline';
import type { ConfigAnalysis } from '../analysis/configAnalysis';
import { locate, scorerEntryAt } from './outlineQuery';
import { configSchemaAt, descriptionOf, markdownOf, scorerOption, type JsonSchema } from './schemaFacts';
import { defaultText, scorerMarkdown, typeText } from './scorerText';

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
    const onScorerKey =
      (found.on === 'key' && !entry.listForm && found.path.length === 2) ||
      (entry.listForm && found.path.length === 3 && found.path[2] === 'type');
    if (onScorerKey)
      return { markdown: scorerMarkdown(definition, analysis.registry.negatedScorer(entry.key)), span: entry.keySpan };
    const optionName = found.path[2];
    if (found.on === 'key' && found.path.length === 3 && typeof optionName === 'string' && found.entry !== undefined) {
      const option = scorerOption(definition, optionName);
      return option === undefined
        ? undefined
        : { markdown: optionMarkdown(optionName, option), span: found.entry.keySpan };
    }
    return undefined;
  }
  if (found.on !== 'key' || found.entry === undefined) return undefined;
  const schema = configSchemaAt(found.path);
  return schema === undefined
    ? undefined
    : { markdown: optionMarkdown(String(found.path[found.path.length - 1]), schema), span: found.entry.keySpan };
}

export function toHover(answer: HoverAnswer, rangeOf: (span: Span) => Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: answer.markdown }, range: rangeOf(answer.span) };
}

function optionMarkdown(name: string, schema: JsonSchema): string {
  const type = typeText(schema);
  const head = `**${name}**${type === '' ? '' : ` (${type})`}${'default' in schema ? `, default ${defaultText(schema)}` : ''}`;
  return [head, markdownOf(schema) || descriptionOf(schema)].filter((s) => s !== '').join('\n\n');
}
