import type { Json } from '../case';
import { DatasetError, displayPath } from './datasetError';
import { describeJsonParseError } from './jsonSyntax';
import type { ColumnType } from './source';
import { parseJson } from '../text/jsonDepth';

/** Columns that are case fields; every other column goes into `metadata` under its name. */
export const CASE_COLUMNS: ReadonlySet<string> = new Set(['id', 'input', 'output', 'expected', 'context']);

/** One header column: its name and how its cells are read. */
export interface CsvColumn {
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * Reads the header row (names trimmed) against the declared column types. A declared column that
 * is not in the header, a duplicate name or an empty name stops the run: a DatasetError.
 */
export function headerColumns(
  file: string,
  cells: readonly string[],
  declared: Readonly<Record<string, ColumnType>>,
): CsvColumn[] {
  const names = cells.map((cell) => cell.trim());
  const where = `the header of dataset ${displayPath(file)}`;
  names.forEach((name, i) => {
    // The header cell's number, counted from 1 as people number columns: not a text position.
    if (name === '') throw new DatasetError(file, `column ${i + 1} of ${where} has no name`);
    if (names.indexOf(name) !== i) throw new DatasetError(file, `${where} has the column "${name}" twice`);
  });
  for (const name of Object.keys(declared)) {
    if (!names.includes(name)) {
      throw new DatasetError(
        file,
        `columns declares "${name}", but ${where} has no such column (it has ${names.map((n) => `"${n}"`).join(', ')})`,
      );
    }
  }
  return names.map((name) => ({ name, type: declared[name] ?? 'string' }));
}

/** A cell's value (`undefined`: absent), or what is wrong with it. */
export type CellValue =
  { readonly ok: true; readonly value: Json | undefined } | { readonly ok: false; readonly problem: string };

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Reads one cell as its column's type. A `string` cell is taken as it is (an empty cell is ""). A
 * typed cell that is empty (or only white space) is absent — not null, not 0, not false. A number is
 * a finite decimal (`1`, `-2.5`, `1e3`; no hex, no Infinity); a boolean `true`/`false` in any case.
 */
export function readCell(raw: string, type: ColumnType): CellValue {
  if (type === 'string') return { ok: true, value: raw };
  const text = raw.trim();
  if (text === '') return { ok: true, value: undefined };
  switch (type) {
    case 'number': {
      const value = Number(text);
      return DECIMAL.test(text) && Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, problem: 'is not a finite decimal number' };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' || lower === 'false'
        ? { ok: true, value: lower === 'true' }
        : { ok: false, problem: 'is neither true nor false' };
    }
    case 'json':
      try {
        return { ok: true, value: parseJson(raw) as Json };
      } catch (error) {
        const { offset, what } = describeJsonParseError(raw, error);
        return { ok: false, problem: `is not valid JSON: ${what} at character ${offset + 1} of the cell` };
      }
  }
}
