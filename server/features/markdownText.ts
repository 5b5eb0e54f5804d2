/**
 * Markdown tables for hovers and completion documentation: cells and rows that stay one row whatever
 * the text holds (`|`, line breaks). Code spans and prose come from shared/text/markdown.ts.
 */

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
