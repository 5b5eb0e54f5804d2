/**
 * Completion in a run config: top-level keys, scorer keys and their `not-` negations (with a snippet
 * of their required options), the options of the scorer being edited, enum values and booleans, and
 * file paths for path-valued keys. Works from the text around the cursor (cursorContext.ts) so it
 * keeps working while the YAML is incomplete; what to offer comes from the schemas and the scorer
 * registry only. Each kind of thing has its own item kind (ITEM_KINDS), so the icons tell them apart.
 */
import {
  type CompletionItemKind,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CompletionItem,
  type Range,
} from 'vscode-languageserver';
import { configPathKeyAt, fileOptionKeys } from '../../core/config/fileOptions';
import type { ScorerRegistry } from '../../core/scorers/registry';
import type { ScorerDefinition } from '../../core/scorers/scorer';
import { cursorContext, LIST_ITEM, type CursorContext } from './cursorContext';
import type { PathSegment } from './outlineQuery';
import { pathCompletions } from './pathCompletion';
import {
  configSchemaAt,
  fixedValues,
  markdownOf,
  placeholderValue,
  propertiesOf,
  requiredOptions,
  scorerOption,
  scorerOptions,
  summaryOf,
  typesOf,
  yamlValue,
  type JsonSchema,
  type PropertyFact,
} from './schemaFacts';
import { scaleText, scorerMarkdown } from './scorerText';
import { ITEM_KINDS } from './itemKinds';

export interface CompletionRequest {
  readonly text: string;
  readonly offset: number;
  /** Converts an offset of `text` to a position, for the ranges items replace. */
  readonly rangeOf: (start: number, end: number) => Range;
  /** The config's folder; undefined for an untitled document (no path completion). */
  readonly configDir: string | undefined;
  readonly registry: ScorerRegistry;
}

export function completions(request: CompletionRequest): CompletionItem[] {
  const context = cursorContext(request.text, request.offset);
  if (context === undefined) return [];
  const range = request.rangeOf(context.partialStart, request.offset);
  const [first, second] = context.path;
  const inScorers = first === 'scorers';
  if (context.position === 'key') {
    if (context.path.length === 0)
      return keyItems(propertiesOf(configSchemaAt([]) ?? {}), context, range, ITEM_KINDS.configKey);
    if (inScorers && context.path.length === 1) return scorerKeyItems(request.registry, context, range, 'mapping');
    if (inScorers && context.path.length === 2) {
      const definition =
        second === LIST_ITEM ? scorerOfItem(request.registry, context) : request.registry.get(String(second));
      if (second === LIST_ITEM && !context.siblings.has('type')) return [typeKeyItem(range)];
      return definition === undefined ? [] : keyItems(scorerOptions(definition), context, range, ITEM_KINDS.option);
    }
    const schema = configSchemaAt(context.path);
    if (schema === undefined) return [];
    // `- ` in a list of values (database_configs): the item is a value, not a key.
    if (context.listItemLine && typesOf(schema).every((t) => t !== 'object'))
      return valueItems(request, context, context.path, schema, range);
    return keyItems(propertiesOf(schema), context, range, ITEM_KINDS.configKey);
  }
  const key = context.key ?? '';
  if (inScorers && context.path.length === 2) {
    if (second === LIST_ITEM && key === 'type') return scorerKeyItems(request.registry, context, range, 'type');
    const definition =
      second === LIST_ITEM ? scorerOfItem(request.registry, context) : request.registry.get(String(second));
    const option = definition === undefined ? undefined : scorerOption(definition, key);
    if (definition === undefined || option === undefined) return [];
    if (fileOptionKeys(definition.schema).includes(key)) return filePaths(request, context, 'file', false);
    return valueItems(request, context, [...context.path, key], option, range);
  }
  const path = [...context.path, key];
  const schema = configSchemaAt(path);
  return schema === undefined ? [] : valueItems(request, context, path, schema, range);
}

function scorerOfItem(registry: ScorerRegistry, context: CursorContext): ScorerDefinition | undefined {
  const type = context.siblings.get('type');
  return type === undefined ? undefined : registry.get(type.replace(/^["']|["']$/g, ''));
}

function keyItems(
  properties: readonly PropertyFact[],
  context: CursorContext,
  range: Range,
  kind: CompletionItemKind,
): CompletionItem[] {
  return properties
    .filter((p) => !context.siblings.has(p.name))
    .map((p): CompletionItem => {
      const nested =
        typesOf(p.schema).length === 1 && (typesOf(p.schema)[0] === 'object' || typesOf(p.schema)[0] === 'array');
      return {
        label: p.name,
        kind,
        detail: summaryOf(p.schema),
        documentation: { kind: MarkupKind.Markdown, value: markdownOf(p.schema) },
        textEdit: { range, newText: nested ? `${p.name}:\n${' '.repeat(context.indent + 2)}` : `${p.name}: ` },
        insertTextMode: InsertTextMode.asIs,
        ...(fixedValues(p.schema).length > 0
          ? { command: { title: 'Suggest', command: 'editor.action.triggerSuggest' } }
          : {}),
      };
    });
}

function typeKeyItem(range: Range): CompletionItem {
  return {
    label: 'type',
    kind: ITEM_KINDS.option,
    detail: 'The scorer of this entry',
    textEdit: { range, newText: 'type: ' },
    command: { title: 'Suggest', command: 'editor.action.triggerSuggest' },
  };
}

/** Escapes text for a snippet (`$`, `}` and `\` are special in snippets). */
function snippetText(text: string): string {
  return text.replace(/[$}\\]/g, (c) => `\\${c}`);
}

function scorerKeyItems(
  registry: ScorerRegistry,
  context: CursorContext,
  range: Range,
  form: 'mapping' | 'type',
): CompletionItem[] {
  const present = form === 'mapping' ? context.siblings : new Map<string, string>();
  // Mapping form: options one level under the key; list form: beside `type`, at the item's column.
  const optionIndent = ' '.repeat(form === 'mapping' ? context.indent + 2 : context.indent);
  // The negations after every scorer: `reg` puts `regex` above `not-regex`.
  const negations = registry.negationKeys().flatMap((key) => {
    const definition = registry.get(key);
    return definition === undefined ? [] : [{ definition, negates: registry.negatedScorer(key), order: '1' }];
  });
  return [...registry.all().map((definition) => ({ definition, negates: undefined, order: '0' })), ...negations]
    .filter(({ definition }) => !present.has(definition.key))
    .map(({ definition, negates, order }): CompletionItem => {
      const required = requiredOptions(definition);
      const lines = required.map(
        (name, i) =>
          `\n${optionIndent}${name}: \${${i + 1}:${snippetText(yamlValue(placeholderValue(scorerOption(definition, name) ?? {})))}}`,
      );
      const head = form === 'mapping' ? `${definition.key}:` : definition.key;
      const newText = required.length === 0 ? (form === 'mapping' ? `${head} {}` : head) : `${head}${lines.join('')}`;
      return {
        label: definition.key,
        kind: ITEM_KINDS.scorer,
        detail:
          negates === undefined ? summaryOf(definition.schema) : `Negation of ${negates.key}: passes when it fails`,
        labelDetails: { description: `${definition.origin} · ${scaleText(definition)}` },
        documentation: { kind: MarkupKind.Markdown, value: scorerMarkdown(definition, negates) },
        sortText: `${order}${definition.key}`,
        textEdit: { range, newText },
        insertTextFormat: InsertTextFormat.Snippet,
        insertTextMode: InsertTextMode.asIs,
      };
    });
}

function valueItems(
  request: CompletionRequest,
  context: CursorContext,
  path: readonly PathSegment[],
  schema: JsonSchema,
  range: Range,
): CompletionItem[] {
  const pathKey = configPathKeyAt(path.map((s) => (s === LIST_ITEM ? 0 : s)));
  if (pathKey !== undefined) return filePaths(request, context, pathKey.kind, pathKey.dataset === true);
  return fixedValues(schema).map((value): CompletionItem => ({
    label: yamlValue(value),
    kind: typeof value === 'boolean' || value === null ? ITEM_KINDS.keyword : ITEM_KINDS.value,
    textEdit: { range, newText: yamlValue(value) },
  }));
}

function filePaths(
  request: CompletionRequest,
  context: CursorContext,
  kind: 'file' | 'folder',
  datasetOnly: boolean,
): CompletionItem[] {
  if (request.configDir === undefined) return [];
  return pathCompletions({
    configDir: request.configDir,
    typed: context.partial,
    segmentRange: (start) => request.rangeOf(context.partialStart + start, request.offset),
    kind,
    datasetOnly,
  });
}
