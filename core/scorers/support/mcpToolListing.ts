import type { Json } from '../../case';
import type { JsonObject } from '../../trace/fields';
import { codePointLength } from './pythonRound';
import { isObject } from '../../../shared/isObject';

/** The tools of a recorded MCP tool listing, or why the value is not one. */
export type ToolListing =
  { readonly ok: true; readonly tools: readonly JsonObject[] } | { readonly ok: false; readonly reason: string };

/**
 * Reads a recorded MCP tool listing: a `tools/list` result (`{"tools": [...]}`, the shape of
 * EvalBench's `tools_source: file` specs) or the list of tools itself. Each tool must be an object
 * with a string `name` and an object `inputSchema`, as the MCP SDK requires before EvalBench sees it.
 */
export function toolListing(value: Json): ToolListing {
  const tools = isObject(value) && Object.hasOwn(value, 'tools') ? value['tools'] : value;
  if (!Array.isArray(tools))
    return {
      ok: false,
      reason: `the output is ${describe(value)}, not an MCP tool listing (a list of tools, or an object with a \`tools\` list)`,
    };
  const checked: JsonObject[] = [];
  for (const [index, tool] of (tools as readonly Json[]).entries()) {
    if (!isObject(tool))
      return { ok: false, reason: `tool ${index + 1} of the listing is ${describe(tool)}, not an object` };
    if (typeof tool['name'] !== 'string')
      return { ok: false, reason: `tool ${index + 1} of the listing has no string \`name\`` };
    if (!isObject(tool['inputSchema']))
      return { ok: false, reason: `tool ${index + 1} (${tool['name']}) has no \`inputSchema\` object` };
    checked.push(tool);
  }
  return { ok: true, tools: checked };
}

/** Fields of an MCP `Tool` that are themselves models (or lists of models) in the Python SDK. */
const MODEL_FIELDS = new Set(['annotations', 'icons', 'execution']);

/**
 * The length, in characters as Python counts them, of a tool as EvalBench serializes it for its size
 * estimate: the MCP SDK's `Tool` model dumped to JSON by its wire names without unset fields
 * (pydantic `model_dump_json(by_alias=True, exclude_none=True)`). That is compact JSON (no spaces),
 * non-ASCII characters as they are, and no field whose value is `null` in the tool or in its nested
 * models (annotations, icons, execution). Values of plain JSON fields (`inputSchema`, `_meta`, …)
 * keep their nulls: pydantic drops nulls from models only. Key order does not change the length.
 */
export function wireLength(tool: JsonObject): number {
  return codePointLength(JSON.stringify(withoutModelNulls(tool)));
}

function withoutModelNulls(tool: JsonObject): JsonObject {
  // Object.fromEntries keeps a recorded `__proto__` key as a plain key.
  return Object.fromEntries(
    Object.entries(tool)
      .filter(([, value]) => value !== null)
      .map(([key, value]) => {
        if (!MODEL_FIELDS.has(key)) return [key, value];
        if (Array.isArray(value))
          return [key, (value as readonly Json[]).map((item) => (isObject(item) ? withoutNulls(item) : item))];
        return [key, isObject(value) ? withoutNulls(value) : value];
      }),
  );
}

function withoutNulls(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
