/**
 * Pieces of Markdown built from schema text and values for hovers and completion documentation:
 * a code span that holds any text (backticks included), and table cells and rows that stay one row
 * whatever the text holds (`|`, line breaks). Helper "editor" of issue 15 adds a shared Markdown
 * helper in shared/text/; this one is the server's until the two are merged into it.
 */

/** `text` as an inline code span: fenced with more backticks than it holds in a row, on one line. */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  // A span that starts or ends with a backtick needs a space inside its fence (CommonMark strips one).
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Markdown as one table cell: line breaks become spaces and every `|` is escaped (in GFM tables a `\|`
 * is a pipe inside a cell, code spans included), so the text cannot end the cell or the row.
 */
export function tableCell(markdown: string): string {
  return oneLine(markdown).replace(/\\?\|/g, '\\|');
}

/** A Markdown table: a header row, then one row per entry, every cell through tableCell. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(tableCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ').trim();
}
