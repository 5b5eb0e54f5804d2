/**
 * A guard against YAML flow collections (`[…]`, `{…}`) nested absurdly deep. yaml composes nested
 * nodes recursively: a few thousand levels overflow the stack, and a few unclosed ones make it report
 * one error per level, which took seconds on a 450 KB text. No config nests flow collections anywhere
 * near MAX_FLOW_NESTING, so past it the text is refused before yaml sees it.
 *
 * The scan is linear and approximate only where it cannot matter: it skips comments and quoted
 * and block scalars, counts a bracket outside a flow collection only where a value can start (a plain scalar such
 * as `a[0]` holds brackets that open nothing), and counts every bracket inside one (flow plain scalars
 * cannot hold them).
 */
export const MAX_FLOW_NESTING = 100;

/** The offset of the bracket that nests deeper than `limit`, or undefined. */
export function tooDeepFlowNesting(text: string, limit = MAX_FLOW_NESTING): number | undefined {
  let depth = 0;
  // Whether a value may start here (line start after indentation, or after `: `, `- `, `? `, `,`).
  let valueStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') {
      valueStart = true;
      continue;
    }
    if (c === ' ' || c === '\t') continue;
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
      continue;
    }
    if ((c === '"' || c === "'") && (valueStart || depth > 0)) {
      i = endOfQuoted(text, i);
      valueStart = false;
      continue;
    }
    if ((c === '[' || c === '{') && (valueStart || depth > 0)) {
      depth++;
      if (depth > limit) return i;
      valueStart = true;
      continue;
    }
    if ((c === ']' || c === '}') && depth > 0) {
      depth--;
      valueStart = false;
      continue;
    }
    if (c === ',' && depth > 0) {
      valueStart = true;
      continue;
    }
    // `: `, `- ` and `? ` let a value start; so do anchors and tags before it (`&a [`, `!tag {`).
    const next = text[i + 1];
    if (
      (c === ':' || c === '-' || c === '?') &&
      (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r')
    ) {
      valueStart = true;
      continue;
    }
    if ((c === '|' || c === '>') && valueStart && depth === 0) {
      i = endOfBlockScalar(text, i);
      continue;
    }
    if ((c === '&' || c === '!') && valueStart) {
      while (i + 1 < text.length && !/[\s,[\]{}]/.test(text[i + 1] ?? '')) i++;
      continue;
    }
    valueStart = false;
  }
  return undefined;
}

/** The offset of the quote that closes the quoted scalar opened at `open` (or the text's end). */
function endOfQuoted(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}

/** The offset of the line break before the first line after a block scalar (`|`, `>`) that is not indented deeper than the line that opened it. */
function endOfBlockScalar(text: string, indicator: number): number {
  const lineStart = Math.max(text.lastIndexOf('\n', indicator), text.lastIndexOf('\r', indicator)) + 1;
  const indentOf = (start: number): number => {
    let n = 0;
    while (text[start + n] === ' ') n++;
    return n;
  };
  const opener = indentOf(lineStart);
  let lineEnd = text.indexOf('\n', indicator);
  while (lineEnd !== -1) {
    const next = lineEnd + 1;
    const indent = indentOf(next);
    const blank = next >= text.length || text[next + indent] === '\n' || text[next + indent] === '\r';
    if (!blank && indent <= opener) return lineEnd;
    lineEnd = text.indexOf('\n', next);
  }
  return text.length;
}
