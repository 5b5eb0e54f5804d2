/**
 * A JSON.parse error said by position and kind only. V8's messages quote the text around the
 * mistake ("Unexpected token 'r', "root:*:202"… is not valid JSON"), and the file may be anything a
 * path can name (/etc/shadow): no character of it may reach a message.
 */
export function jsonParseError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const kind = errorKind(message);
  const offset = errorOffset(text, message);
  if (offset === undefined) return `invalid JSON: ${kind}`;
  const { line, column } = lineAndColumn(text, offset);
  return `invalid JSON at line ${line}, column ${column}: ${kind}`;
}

function errorKind(message: string): string {
  if (/unexpected end/i.test(message)) return 'the text ends too early';
  if (/unterminated string/i.test(message)) return 'a string is not closed';
  if (/bad control character/i.test(message)) return 'a control character inside a string';
  if (/bad (escaped|unicode escape)/i.test(message)) return 'a bad escape inside a string';
  if (/property name/i.test(message)) return 'expected a double-quoted property name';
  if (/after (array element|property value)/i.test(message)) return 'expected a comma or a closing bracket';
  if (/expected ':'/i.test(message)) return "expected ':' after a property name";
  if (/non-whitespace character after JSON/i.test(message)) return 'more text after the JSON value';
  if (/unexpected (token|character|number|string)/i.test(message)) return 'unexpected character';
  return 'not JSON';
}

function errorOffset(text: string, message: string): number | undefined {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn !== null) return offsetOf(text, Number(lineColumn[1]), Number(lineColumn[2]));
  const position = /position (\d+)/.exec(message);
  if (position !== null) return Math.min(Number(position[1]), text.length);
  if (/unexpected end/i.test(message)) return text.length;
  // Node 20 names the unexpected character but not where it is: taken as its first appearance.
  const token = /Unexpected token '(.)'/u.exec(message)?.[1];
  if (token !== undefined) {
    const at = text.indexOf(token);
    return at === -1 ? undefined : at;
  }
  return undefined;
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** 1-based line and column of an offset, as a person reads them. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
