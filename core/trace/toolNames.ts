import type { Json } from '../case';
import { parsedJson } from './fields';
import { isObject } from '../../shared/isObject';

/**
 * Tool names in EvalBench's canonical form: `<server>__<tool>` for an MCP tool, the bare name for a
 * native (harness) tool. Each harness reports MCP calls its own way, and a recording rarely says which
 * harness made it, so the adapter that applies is decided by the name's shape alone:
 *
 * - Claude Code: `mcp__<server>__<tool>`. The server may hold single underscores; the first `__` after
 *   the `mcp__` prefix ends it. Without a non-empty server and tool the name is kept as it is.
 * - Gemini CLI: `mcp_<server>_<tool>`, where the server has no underscore. Otherwise kept as it is.
 * - Antigravity (agy): the native tool `call_mcp_tool` with arguments `{ServerName, ToolName,
 *   Arguments}`, whose strings may arrive JSON-encoded with their quotes (`"\"cloud-sql\""`). It
 *   becomes `<server>__<tool>` when both are present, else the name is kept.
 *
 * A name already canonical passes through unchanged (a Claude-shaped name is read as Claude's first,
 * since `mcp__s__t` would otherwise look canonical with server `mcp`).
 */
export function canonicalToolName(name: string, args?: Json): string {
  return canonicalToolCall(name, args).name;
}

/** A tool call with its canonical name, and the arguments of the MCP tool itself. */
export interface CanonicalCall {
  readonly name: string;
  /** For an unwrapped agy call, its `Arguments` (JSON-decoded when a string holds an object or list). */
  readonly arguments?: Json;
}

/**
 * `canonicalToolName`, and the arguments that belong to the canonical tool: an agy `call_mcp_tool` call
 * carries the MCP tool's own arguments in `Arguments` (absent there: not kept); every other call keeps
 * its arguments as they are.
 */
export function canonicalToolCall(name: string, args?: Json): CanonicalCall {
  const same: CanonicalCall = args === undefined ? { name } : { name, arguments: args };
  if (name.startsWith(CLAUDE_PREFIX)) return { ...same, name: fromClaude(name) };
  if (looksCanonicalMcp(name)) return same;
  const gemini = GEMINI.exec(name);
  if (gemini?.[1] !== undefined && gemini[2] !== undefined) return { ...same, name: `${gemini[1]}__${gemini[2]}` };
  if (name === AGY_TOOL) return fromAgy(args) ?? same;
  return same;
}

/** Whether `name` is in canonical MCP form: `name.partition("__")` gives a non-empty server and tool. */
export function looksCanonicalMcp(name: string): boolean {
  const split = name.indexOf('__');
  return split > 0 && split + 2 < name.length;
}

const CLAUDE_PREFIX = 'mcp__';
const GEMINI = /^mcp_([^_]+)_(.+)$/s;
const AGY_TOOL = 'call_mcp_tool';

function fromClaude(name: string): string {
  const rest = name.slice(CLAUDE_PREFIX.length);
  return looksCanonicalMcp(rest) ? rest : name;
}

function fromAgy(args: Json | undefined): CanonicalCall | undefined {
  if (!isObject(args)) return undefined;
  const server = unquoted(args['ServerName']);
  const tool = unquoted(args['ToolName']);
  if (server === undefined || tool === undefined) return undefined;
  const inner = args['Arguments'];
  const name = `${server}__${tool}`;
  return inner === undefined ? { name } : { name, arguments: decodedArguments(inner) };
}

/** A non-empty string, with one layer of JSON string encoding removed when it has one. */
function unquoted(value: Json | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const decoded = parsedJson(text);
    if (typeof decoded === 'string') text = decoded;
  }
  return text === '' ? undefined : text;
}

/** A string holding a JSON object or list becomes that value; anything else is kept as recorded. */
function decodedArguments(value: Json): Json {
  if (typeof value !== 'string') return value;
  const decoded = parsedJson(value);
  return typeof decoded === 'object' && decoded !== null ? decoded : value;
}
