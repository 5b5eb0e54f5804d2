import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { openRegularFileStream, READ_LIMITS, readBoundedText } from '../text/boundedRead';
import { displayLineColumn } from '../../shared/text/displayPosition';

/**
 * EvalBench's database setup folder, read as its `resetup_database` reads it
 * (evalbench/util/config.py, databases/db.py), as a sequence of steps for an SQLite builder:
 *
 * `<setup_directory>/<database>/<db_type>/pre_setup.sql`, then `setup.sql`, then the rows of every
 * `<setup_directory>/<database>/data/<table>.csv`, then `post_setup.sql`. A missing `.sql` file is no
 * statements (EvalBench reads it as an empty list); a missing `data` folder is no rows.
 *
 * - SQL files are cut at every `;` as EvalBench cuts them (`content.split(";")`, even inside a string
 *   literal), each piece trimmed, empty pieces dropped; each statement carries its file:line:col.
 * - CSV files have no header: every row is data, inserted as `INSERT INTO \`<table>\` VALUES (…)` with
 *   one value per cell. Cells are cleaned as EvalBench's `_clean_insert_value` cleans them: a cell that
 *   is empty, `null` or `none` (any case, after trimming) is NULL; otherwise trimmed, one pair of
 *   surrounding single quotes removed, and `true` / `false` become SQLite's 1 / 0; every other value
 *   is bound as text (the column's affinity converts it, as with EvalBench's driver). Files are read in
 *   name order (EvalBench takes the directory's order). A row whose cell count differs from the
 *   file's first row is an error at its line (EvalBench's insert fails on it too).
 *
 * Bounded: each `.sql` file up to 64 MiB, the data files of one database up to 1 GiB together and
 * 5,000,000 rows, one row up to 1 MiB of text. CSV rows are streamed in batches; the builder asks for
 * the next batch when it has inserted the last one, so memory holds one batch.
 */

export type SetupStep =
  | { readonly kind: 'sql'; readonly sql: string; readonly where: string }
  | {
      readonly kind: 'rows';
      readonly table: string;
      readonly rows: readonly (readonly SetupValue[])[];
      readonly where: readonly string[];
    }
  /** A new phase on a new connection, as EvalBench runs each phase: per-connection settings reset. */
  | { readonly kind: 'phase' };

export type SetupValue = string | number | null;

export const SETUP_LIMITS = {
  sqlFileBytes: READ_LIMITS.setupScript as number,
  dataBytes: 1024 * 1024 * 1024,
  rows: 5_000_000,
  rowCharacters: 1024 * 1024,
  batchRows: 2_000,
};

const PHASES = ['pre_setup.sql', 'setup.sql'] as const;

/** The folder of one database's setup: `<setup_directory>/<database>`. */
export function setupFolderOf(setupDirectory: string, database: string): string {
  return join(setupDirectory, database);
}

/** Why a database's setup folder cannot be used (no `<db_type>` scripts folder), or undefined when it can. */
export function missingSetup(folder: string, dbType: string): string | undefined {
  const scripts = join(folder, dbType);
  return existsSync(scripts)
    ? undefined
    : `its setup folder ${scripts} does not exist (EvalBench builds the database from ${join(folder, dbType)}/{pre_setup,setup,post_setup}.sql and ${join(folder, 'data')}/*.csv)`;
}

/** The steps that build one database from `folder` (`<setup_directory>/<database>`) for `dbType`. */
export async function* setupSteps(folder: string, dbType: string, limits = SETUP_LIMITS): AsyncGenerator<SetupStep> {
  const scripts = join(folder, dbType);
  for (const name of PHASES) {
    yield { kind: 'phase' };
    yield* sqlSteps(join(scripts, name), limits);
  }
  yield { kind: 'phase' };
  yield* dataSteps(join(folder, 'data'), limits);
  yield { kind: 'phase' };
  yield* sqlSteps(join(scripts, 'post_setup.sql'), limits);
}

async function* sqlSteps(file: string, limits: typeof SETUP_LIMITS): AsyncGenerator<SetupStep> {
  if (!existsSync(file)) return;
  const read = await readBoundedText(file, 'setupScript', limits.sqlFileBytes);
  if (!read.ok) throw new Error(`${file}:1:1: cannot read the setup script: ${read.reason}`);
  const text = read.text;
  for (const { sql, line, column } of splitAtSemicolons(text))
    yield { kind: 'sql', sql, where: `${file}:${displayLineColumn({ line, column })}` };
}

/** EvalBench's split: at every `;`, trimmed, empty pieces dropped; with where each piece starts (0-based, as core counts). */
export function splitAtSemicolons(text: string): { sql: string; line: number; column: number }[] {
  const pieces: { sql: string; line: number; column: number }[] = [];
  // Where the line count stands: pieces start at increasing offsets, so it only moves forward.
  let cursor = 0;
  let line = 0;
  let lineStart = 0;
  let start = 0;
  for (const raw of text.split(';')) {
    const sql = raw.trim();
    if (sql !== '') {
      const offset = start + raw.indexOf(sql);
      for (; cursor < offset; cursor++) {
        if (text[cursor] === '\n') {
          line++;
          lineStart = cursor + 1;
        }
      }
      pieces.push({ sql, line, column: offset - lineStart });
    }
    start += raw.length + 1;
  }
  return pieces;
}

async function* dataSteps(folder: string, limits: typeof SETUP_LIMITS): AsyncGenerator<SetupStep> {
  if (!existsSync(folder)) return;
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.csv'))
    .sort();
  let bytes = 0;
  for (const name of files) bytes += statSync(join(folder, name)).size;
  if (bytes > limits.dataBytes)
    throw new Error(
      `${folder}:1:1: the data files are ${bytes} bytes together; EvalLens reads up to ${limits.dataBytes} bytes of setup data per database`,
    );
  let rows = 0;
  for (const name of files) {
    const file = join(folder, name);
    const table = name.slice(0, -'.csv'.length);
    for await (const batch of csvBatches(file, table, limits)) {
      rows += batch.rows.length;
      if (rows > limits.rows)
        throw new Error(
          `${batch.where[batch.where.length - 1] ?? `${file}:1:1`}: the data files hold more than ${limits.rows} rows; EvalLens builds databases of up to ${limits.rows} rows`,
        );
      yield batch;
    }
  }
}

async function* csvBatches(
  file: string,
  table: string,
  limits: typeof SETUP_LIMITS,
): AsyncGenerator<Extract<SetupStep, { kind: 'rows' }>> {
  // Python's csv.reader (excel dialect): `,`, `"` quotes doubled inside quotes, quotes inside an unquoted cell kept.
  const opened = openRegularFileStream(file);
  if (!opened.ok) throw new Error(`${file}:1:1: cannot read the setup data: ${opened.reason}`);
  const parser = opened.stream.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: limits.rowCharacters,
    }),
  );
  let width: number | undefined;
  let nextLine = 1;
  let rows: SetupValue[][] = [];
  let where: string[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = nextLine;
      nextLine = info.lines + 1;
      width ??= record.length;
      if (record.length !== width) {
        throw new Error(
          `${file}:${line}:1: expected ${width} cells (as in the file's first row), saw ${record.length}${record.length === 1 && record[0] === '' ? ' (an empty line)' : ''}`,
        );
      }
      rows.push(record.map(cleanValue));
      where.push(`${file}:${line}:1`);
      if (rows.length >= limits.batchRows) {
        yield { kind: 'rows', table, rows, where };
        rows = [];
        where = [];
      }
    }
  } catch (e) {
    const csv = e as { code?: unknown; message?: unknown };
    if ((typeof csv.code === 'string' && csv.code.startsWith('CSV_')) || csv.code === 'INVALID_OPENING_QUOTE') {
      // Said at the start of the row being read: an unclosed quote is only found where the file ends.
      throw new Error(`${file}:${nextLine}:1: the CSV row that starts here cannot be read: ${String(csv.message)}`);
    }
    throw e;
  }
  if (rows.length > 0) yield { kind: 'rows', table, rows, where };
}

/** EvalBench's `_clean_insert_value` with SQLite's booleans (see the module comment). */
export function cleanValue(cell: string): SetupValue {
  const trimmed = cell.trim();
  const lower = trimmed.toLowerCase();
  if (lower === '' || lower === 'null' || lower === 'none') return null;
  const value = trimmed.startsWith("'") && trimmed.endsWith("'") ? trimmed.slice(1, -1) : trimmed;
  const bool = value.toLowerCase();
  if (bool === 'true') return 1;
  if (bool === 'false') return 0;
  return value;
}
