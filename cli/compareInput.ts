/**
 * Reads one side of `evallens compare`: a report.json, or a run folder (its report.json), streamed a
 * line at a time into a CollectedRun so memory does not hold the report's results. The CLI writes
 * report.json with one case or result per line (cli/reporters/json.ts); a report laid out otherwise
 * (re-indented by a tool) is read whole within the report size cap and checked against its schema.
 * Every failure is a CompareInputError naming the file, the 1-based line:column where it applies,
 * what was expected and what was seen.
 */
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { BASELINE_FORMAT, BASELINE_VERSION } from '../core/compare/baselineFile';
import { CollectedRun, type CompareCase, type CompareResult } from '../core/compare/collectRun';
import type { ScorerSide } from '../core/compare/compareRuns';
import { displayColumn, displayLine } from '../shared/text/displayPosition';
import { printable } from '../shared/text/printable';
import { readBoundedText } from '../core/text/boundedRead';
import { parseReport, ReportFileError } from './reportJson';

import { CompareInputError } from './compareInputError';
export { CompareInputError };

/** What the comparison knows of one side. */
export interface CompareSide {
  /** The path as given. */
  readonly file: string;
  readonly runId: string;
  readonly configFile: string;
  readonly scorers: readonly ScorerSide[];
  /** Scorer name → key, to refuse comparing two different scorers that share a name. */
  readonly scorerKeys: ReadonlyMap<string, string>;
  readonly run: CollectedRun;
}

const REPORT_VERSION = 1;

/** The report.json a path names: the path itself, or a run folder's. */
function reportPathOf(path: string): string {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CompareInputError(
      `${printable(path)}: cannot read it (${code === 'ENOENT' ? 'it does not exist' : (code ?? 'unreadable')})`,
    );
  }
  if (!isFolder) {
    // A FIFO or a device (/dev/zero) would never end: only a regular file is read.
    if (!statSync(path).isFile())
      throw new CompareInputError(`${printable(path)}: expected a report.json file or a run folder, saw neither`);
    return path;
  }
  const report = join(path, 'report.json');
  try {
    statSync(report);
  } catch {
    throw new CompareInputError(
      `${printable(path)}: expected a run folder with a report.json (written when a run finishes), saw none`,
    );
  }
  return report;
}

export async function readCompareSide(path: string): Promise<CompareSide> {
  const file = reportPathOf(path);
  const reader = new LineLayoutReader(file);
  const stream = createReadStream(file, { highWaterMark: 1 << 18 });
  try {
    await feedLines(stream, file, (line) => reader.add(line));
  } catch (e) {
    if (e instanceof CompareInputError) throw e;
    throw new CompareInputError(
      `${printable(file)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  } finally {
    stream.destroy();
  }
  if (reader.laidOut) return reader.finish();
  return readWhole(file);
}

/** A report laid out otherwise: read whole (bounded), checked against the schema. */
async function readWhole(file: string): Promise<CompareSide> {
  const read = await readBoundedText(file, 'report');
  if (!read.ok) throw new CompareInputError(`${printable(file)}: cannot read it (${read.reason})`);
  // The version first: an older report fails the schema in many places, and the version says why.
  let version: unknown;
  try {
    version = (JSON.parse(read.text.replace(/^\uFEFF/, '')) as { version?: unknown } | null)?.version;
  } catch {
    version = REPORT_VERSION; // parseReport names the syntax error's line and column
  }
  if (version !== REPORT_VERSION) headOf(file, { version }, 1);
  let report;
  try {
    report = parseReport(read.text, file);
  } catch (e) {
    if (e instanceof ReportFileError) throw new CompareInputError(e.message);
    throw e;
  }
  const head = headOf(file, report as unknown as Record<string, unknown>, 1);
  for (const c of report.cases) head.run.addCase(c);
  for (const r of report.results) head.run.addResult(r);
  return head;
}

function headOf(file: string, head: Record<string, unknown>, line: number, baseline = false): CompareSide {
  const version = head['version'];
  const expected = baseline ? BASELINE_VERSION : REPORT_VERSION;
  if (version !== expected)
    throw new CompareInputError(
      `${printable(file)}:${line}:1: expected an EvalLens ${baseline ? 'baseline' : 'report'} of version ${expected}, saw ${version === undefined ? 'no version' : `version ${printable(JSON.stringify(version))}`} (${baseline ? 'a baseline of an older format: save it again with `evallens baseline save`' : 'a report of an older format: run the eval again to compare it'})`,
    );
  const scorersValue = head['scorers'];
  const scorers: ScorerSide[] = [];
  const scorerKeys = new Map<string, string>();
  if (Array.isArray(scorersValue))
    for (const s of scorersValue as Record<string, unknown>[]) {
      if (typeof s['name'] !== 'string') continue;
      const scale = s['scale'] as { kind?: unknown; max?: unknown } | undefined;
      const max = scale?.kind === 'bounded' && typeof scale.max === 'number' && scale.max > 0 ? scale.max : undefined;
      scorers.push({
        name: s['name'],
        lowerIsBetter: s['lowerIsBetter'] === true,
        ...(max === undefined ? {} : { max }),
      });
      scorerKeys.set(s['name'], typeof s['key'] === 'string' ? s['key'] : s['name']);
    }
  return {
    file,
    runId: typeof head['runId'] === 'string' ? head['runId'] : '',
    configFile: typeof head['configFile'] === 'string' ? head['configFile'] : '',
    scorers,
    scorerKeys,
    run: new CollectedRun(scorers.map((s) => s.name)),
  };
}

/** The longest line read (a case or result of the CLI's layout is far shorter); a longer one is refused, not buffered. */
const MAX_LINE = 16 * 1024 * 1024; // bytes

/**
 * Feeds the lines of a file (\n or \r\n) to `take` until it returns false. Split on the bytes and
 * decoded a line at a time (UTF-8 never has a 0x0A byte inside a character), which is several times
 * faster than readline for a million lines, and bounded: a line longer than MAX_LINE is refused, not
 * buffered.
 */
async function feedLines(stream: AsyncIterable<Buffer>, file: string, take: (line: string) => boolean): Promise<void> {
  let rest: Buffer | undefined;
  let line = 0;
  for await (const chunk of stream) {
    const bytes = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
    rest = undefined;
    let at = 0;
    for (;;) {
      const newline = bytes.indexOf(10, at);
      if (newline === -1) break;
      const end = newline > at && bytes[newline - 1] === 13 ? newline - 1 : newline;
      if (!take(bytes.toString('utf8', at, end))) return;
      line++;
      at = newline + 1;
    }
    if (at < bytes.length) rest = bytes.subarray(at);
    if (rest !== undefined && rest.length > MAX_LINE)
      throw new CompareInputError(
        `${printable(file)}:${displayLine(line)}:1: expected a report with one item per line, saw a line longer than ${MAX_LINE} bytes`,
      );
  }
  if (rest !== undefined) take(rest.toString('utf8'));
}

type Section = 'start' | 'head' | 'scorers' | 'cases' | 'results' | 'tail';

/**
 * The CLI's own layout: `{`, then one `"key":value,` per head field, `"scorers":[`, one scorer per
 * line, `],`, `"cases":[`, one case per line, `],`, `"results":[`, one result per line, `]`, then
 * optional tail fields and `}`. Each line is parsed on its own.
 */
class LineLayoutReader {
  /** Whether the file has the CLI's layout (known after its first two lines). */
  laidOut = true;
  private section: Section = 'start';
  private lineNumber = 0;
  private readonly head: Record<string, unknown> = {};
  private readonly scorers: unknown[] = [];
  private side: CompareSide | undefined;
  private closed = false;
  /** The file is a baseline (`evallens baseline save`), not a report. */
  private baseline = false;

  constructor(private readonly file: string) {}

  /** Takes a line; false to stop reading (the layout is not the CLI's). */
  add(raw: string): boolean {
    this.lineNumber++;
    const line = this.lineNumber === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    switch (this.section) {
      case 'start':
        if (line !== '{') return (this.laidOut = false);
        this.section = 'head';
        return true;
      case 'head': {
        if (line === '"scorers":[') {
          this.section = 'scorers';
          return true;
        }
        if (this.lineNumber === 2 && line === `"format":${JSON.stringify(BASELINE_FORMAT)},`) {
          this.baseline = true;
          return true;
        }
        if (this.lineNumber === 2 && !line.startsWith('"version":')) return (this.laidOut = false);
        const field = this.parse(`{${line.replace(/,$/, '')}}`, 'a report field ("name":value)', -1);
        Object.assign(this.head, field);
        if (line.startsWith('"version":')) headOf(this.file, this.head, this.lineNumber, this.baseline);
        if (this.baseline && typeof this.head['config'] === 'string') this.head['configFile'] = this.head['config'];
        return true;
      }
      case 'scorers':
        if (line === '],') {
          this.side = headOf(this.file, { ...this.head, scorers: this.scorers }, 2, this.baseline);
          return true;
        }
        if (line === '"cases":[') {
          this.section = 'cases';
          return true;
        }
        this.scorers.push(this.parse(line.replace(/,$/, ''), 'a scorer', 0));
        return true;
      case 'cases':
        if (line === '],') return true;
        if (this.baseline) {
          if (line === ']') {
            this.section = 'tail';
            return true;
          }
          this.addBaselineCase(line);
          return true;
        }
        if (line === '"results":[') {
          this.section = 'results';
          return true;
        }
        this.runOf().addCase(fastCase(line) ?? this.item<CompareCase>(line, 'a case', isCase));
        return true;
      case 'results':
        if (line === ']' || line === '],') {
          this.section = 'tail';
          return true;
        }
        this.runOf().addResult(fastResult(line) ?? this.item<CompareResult>(line, 'a result', isResult));
        return true;
      case 'tail':
        if (line === '}') this.closed = true;
        return true;
    }
  }

  /** A baseline file's case line: `{"id":…,"passed":…,"scorers":{"<name>":{"passed":…,"score":…}}}`. */
  private addBaselineCase(line: string): void {
    const value = this.parse(line.replace(/,$/, ''), 'a baseline case', 0) as {
      id?: unknown;
      passed?: unknown;
      fingerprint?: unknown;
      scorers?: Record<string, { passed?: unknown; score?: unknown } | null>;
    } | null;
    if (
      value === null ||
      typeof value !== 'object' ||
      typeof value.id !== 'string' ||
      typeof value.scorers !== 'object'
    )
      throw this.error(
        this.lineNumber,
        1,
        'expected a baseline case ({"id", "passed", "scorers"}), saw something else: the file is corrupt',
      );
    const run = this.runOf();
    run.addCase({
      id: value.id,
      status: value.passed === true ? 'passed' : 'failed',
      ...(typeof value.fingerprint === 'string' ? { fingerprint: value.fingerprint } : {}),
    });
    for (const [scorer, entry] of Object.entries(value.scorers ?? {})) {
      if (entry === null || typeof entry !== 'object') continue;
      run.addResult({
        caseId: value.id,
        scorer,
        ...(typeof entry.score === 'number' ? { score: entry.score } : {}),
        ...(typeof entry.passed === 'boolean' ? { passed: entry.passed } : {}),
      });
    }
  }

  finish(): CompareSide {
    if (this.section === 'start') throw this.error(1, 1, 'expected an EvalLens report, saw an empty file');
    if (this.section !== 'tail' || !this.closed)
      throw this.error(
        this.lineNumber + 1,
        1,
        `expected the rest of the report (its ${this.section === 'tail' ? 'closing }' : `${this.section} and what follows`}), saw the end of the file: the file is cut short`,
      );
    return this.runSide();
  }

  private runSide(): CompareSide {
    if (this.side === undefined)
      throw this.error(this.lineNumber, 1, 'expected the list of scorers ("scorers":[…]), saw none');
    return this.side;
  }

  private runOf(): CollectedRun {
    return this.runSide().run;
  }

  private item<T>(line: string, what: string, check: (value: unknown) => boolean): T {
    const value = this.parse(line.replace(/,$/, ''), what, 0);
    if (!check(value))
      throw this.error(
        this.lineNumber,
        1,
        `expected ${what} of an EvalLens report, saw an object without its ${what === 'a case' ? 'id and status' : 'caseId and scorer'}`,
      );
    return value as T;
  }

  /** Parses one line's JSON; `shift` maps a column of the parsed text back to the line's. */
  private parse(text: string, what: string, shift: number): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      const errors: ParseError[] = [];
      parse(text, errors, { disallowComments: true, allowTrailingComma: false });
      const first = errors[0];
      const column = Math.max(0, (first?.offset ?? 0) + shift);
      const kind =
        first === undefined
          ? 'text that is not JSON'
          : `a JSON syntax error (${printParseErrorCode(first.error)
              .replace(/(?<=[a-z])(?=[A-Z])/g, ' ')
              .toLowerCase()})`;
      throw this.error(
        this.lineNumber,
        displayColumn(column),
        `expected ${what} as JSON, saw ${kind}: the file is corrupt`,
      );
    }
  }

  private error(line: number, column: number, detail: string): CompareInputError {
    return new CompareInputError(`${printable(this.file)}:${displayLine(line - 1)}:${column}: ${detail}`);
  }
}

/*
 * The fast path: parsing a million result lines whole (reasons, details) is most of a comparison's
 * time, and it reads four fields. The CLI writes them first, in this order (cli/reporters/json.ts,
 * cli/runStore.ts), so they are read from the line's start; a line that does not start so, or does not
 * end as a JSON object does, is parsed whole (and a corrupt one refused there).
 */
const STRING = '"(?:[^"\\\\]|\\\\.)*"';
const NUMBER = '-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?';
const RESULT_START = new RegExp(
  `^\\{"caseId":(${STRING}),"scorer":(${STRING}),"trial":\\d+,"status":"[a-z]+"(?:,"score":(${NUMBER}))?(?:,"passed":(true|false))?[,}]`,
);
const CASE_START = new RegExp(`^\\{"id":(${STRING}),"index":\\d+,"status":"(passed|failed|errored|skipped)"[,}]`);

const FINGERPRINT = /"fingerprint":"([0-9a-f]{16})"/;

function ends(line: string): boolean {
  return line.endsWith('}') || line.endsWith('},');
}

function unquote(json: string): string {
  return json.includes('\\') ? (JSON.parse(json) as string) : json.slice(1, -1);
}

function fastResult(line: string): CompareResult | undefined {
  const m = RESULT_START.exec(line);
  if (m === null || !ends(line)) return undefined;
  const [, caseId = '""', scorer = '""', score, passed] = m;
  return {
    caseId: unquote(caseId),
    scorer: unquote(scorer),
    ...(score === undefined ? {} : { score: Number(score) }),
    ...(passed === undefined ? {} : { passed: passed === 'true' }),
  };
}

function fastCase(line: string): CompareCase | undefined {
  const m = CASE_START.exec(line);
  if (m === null || !ends(line)) return undefined;
  const [, id = '""', status] = m;
  // Inside a JSON string every quote is escaped, so this text outside the id can only be the field.
  const fingerprint = FINGERPRINT.exec(line)?.[1];
  return {
    id: unquote(id),
    status: status as CompareCase['status'],
    ...(fingerprint === undefined ? {} : { fingerprint }),
  };
}

function isCase(value: unknown): boolean {
  const v = value as Record<string, unknown> | null;
  return typeof v === 'object' && v !== null && typeof v['id'] === 'string' && typeof v['status'] === 'string';
}

function isResult(value: unknown): boolean {
  const v = value as Record<string, unknown> | null;
  return typeof v === 'object' && v !== null && typeof v['caseId'] === 'string' && typeof v['scorer'] === 'string';
}
