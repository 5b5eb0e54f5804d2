/** Characters that make a spreadsheet read a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text field: a leading `'` when it starts like a formula (`=`, `+`, `-`, `@`, tab, CR), then
 * RFC 4180 quoting (quoted when it holds a comma, quote, CR or LF; inner quotes doubled).
 */
export function csvText(value: string): string {
  return quote(FORMULA_START.test(value) ? `'${value}` : value);
}

/**
 * A numeric field, written as a number and never guarded: a negative score stays `-0.5`, which a
 * spreadsheet reads as a number, not a formula. Empty when absent.
 */
export function csvNumber(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** One record, LF-terminated (RFC 4180 allows LF in practice; every CSV reader accepts it). */
export function csvRow(fields: readonly string[]): string {
  return `${fields.join(',')}\n`;
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
