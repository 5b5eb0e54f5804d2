/**
 * Property (issue 13, BOUNDED READS): every option that names a file, pointed at a symlink to
 * /dev/zero, a FIFO, a folder and (where the file is read whole) a file one byte over its cap, gives
 * a problem that names the file and what was expected (the cap, for a file too large), and nothing is
 * read: the process's memory stays bounded and no read hangs (a FIFO would wait for a writer).
 * Options: the run config, `model_config`, `json_schema.schema_path`, `database_configs`, every
 * dataset format (JSON Lines, JSON, CSV, YAML; an evalset is a JSON dataset), a setup folder's `.sql`
 * scripts, an SQLite database file, and a report given to `evallens report` (`READ_LIMITS.report`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadRunConfig } from '../../../core/config/loadRunConfig';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { DatasetError } from '../../../core/dataset/datasetError';
import { openDataset } from '../../../core/dataset/open';
import { loadModelConfig } from '../../../core/judge/modelConfig';
import { loadDatabaseConfig } from '../../../core/sql/databaseConfig';
import { setupSteps } from '../../../core/sql/setupFolder';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import { READ_LIMITS, readBoundedText, type ReadKind } from '../../../core/text/boundedRead';

type NodeKind = 'zero' | 'fifo' | 'folder' | 'oversize';
const NODE_KINDS: readonly NodeKind[] = ['zero', 'fifo', 'folder', 'oversize'];
const EXPECTED: Readonly<Record<NodeKind, RegExp>> = {
  zero: /expected a regular file, but it is a character device/,
  fifo: /expected a regular file, but it is a named pipe/,
  folder: /is a folder/,
  oversize: /expected at most \d+ bytes \(\d+ MiB\), but it has \d+/,
};

let work = '';
let made = 0;

/** A path of the given kind (an oversize file is sparse: nothing is written). */
function nodeOf(kind: NodeKind, name: string, cap: ReadKind): string {
  const path = join(work, `${made++}-${name}`);
  if (kind === 'zero') symlinkSync('/dev/zero', path);
  else if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else if (kind === 'folder') mkdirSync(path);
  else {
    writeFileSync(path, '');
    truncateSync(path, READ_LIMITS[cap] + 1);
  }
  return path;
}

/** What each option says about a path, as text (a problem's message, a refusal, an error), or undefined when it read it. */
const OPTIONS: readonly {
  readonly name: string;
  readonly cap: ReadKind | undefined;
  readonly file: string;
  readonly say: (path: string) => Promise<string | undefined>;
}[] = [
  {
    name: 'run config',
    cap: 'config',
    file: 'run.eval.yaml',
    say: async (p) =>
      loadRunConfig(p, {})
        .problems.map((x) => `${x.range.file} ${x.message}`)
        .join('\n'),
  },
  {
    name: 'model_config',
    cap: 'config',
    file: 'model.yaml',
    say: async (p) =>
      loadModelConfig(p, {})
        .problems.map((x) => `${x.range.file} ${x.message}`)
        .join('\n'),
  },
  {
    name: 'json_schema.schema_path',
    cap: 'schema',
    file: 'schema.json',
    say: async (p) =>
      parseRunConfig(
        `scorers:\n  json_schema: {schema_path: "${p}"}\ncases:\n  - {id: a, output: "{}"}\n`,
        join(work, 'x.eval.yaml'),
        {},
      )
        .problems.map((x) => x.message)
        .join('\n'),
  },
  {
    name: 'database_configs',
    cap: 'config',
    file: 'db.yaml',
    say: async (p) =>
      loadDatabaseConfig(p, {})
        .problems.map((x) => `${x.range.file} ${x.message}`)
        .join('\n'),
  },
  { name: 'dataset (JSON Lines)', cap: undefined, file: 'data.jsonl', say: (p) => datasetSays(p) },
  { name: 'dataset (JSON, evalsets)', cap: undefined, file: 'data.json', say: (p) => datasetSays(p) },
  { name: 'dataset (CSV)', cap: undefined, file: 'data.csv', say: (p) => datasetSays(p) },
  { name: 'dataset (YAML)', cap: 'wholeDataset', file: 'data.yaml', say: (p) => datasetSays(p) },
  { name: 'setup .sql script', cap: 'setupScript', file: 'setup.sql', say: (p) => setupSays(p) },
  { name: 'SQLite database file', cap: 'sqliteDatabase', file: 'db.sqlite', say: (p) => sqliteSays(p) },
  {
    name: 'evallens report file',
    cap: 'report',
    file: 'report.json',
    say: async (p) => readBoundedText(p, 'report').then((r) => (r.ok ? undefined : `${p} ${r.reason}`)),
  },
];

async function datasetSays(path: string): Promise<string | undefined> {
  try {
    const records = [];
    for await (const record of openDataset({ path })) records.push(record);
    return records.map((r) => (r.ok ? '' : r.error.message)).join('\n');
  } catch (error) {
    assert.ok(error instanceof DatasetError, String(error));
    return error.message;
  }
}

async function setupSays(path: string): Promise<string | undefined> {
  // A setup folder `<dir>/<database>/sqlite/pre_setup.sql`: the script is the node under test.
  const folder = join(work, `setup-${made++}`);
  mkdirSync(join(folder, 'sqlite'), { recursive: true });
  symlinkSync(path, join(folder, 'sqlite', 'pre_setup.sql'));
  try {
    for await (const step of setupSteps(folder, 'sqlite')) void step;
    return undefined;
  } catch (error) {
    return `${path} ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function sqliteSays(path: string): Promise<string | undefined> {
  try {
    const engine = await openSqlite({ file: path });
    await engine.close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'evallens-bounded-property-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('bounded reads: every option that names a file', () => {
  for (const option of OPTIONS) {
    for (const kind of NODE_KINDS) {
      if (kind === 'oversize' && option.cap === undefined) continue; // streamed: bounded per case (MAX_CASE_CHARS, the CSV row cap)
      it(`${option.name} → ${kind}: refused with the file named and what was expected`, async () => {
        const path = nodeOf(kind, option.file, option.cap ?? 'config');
        const said = await option.say(path);
        assert.ok(said !== undefined && said !== '', `${option.name} read ${kind} without a word`);
        assert.match(said, EXPECTED[kind]);
        if (kind === 'oversize' && option.cap !== undefined)
          assert.match(said, new RegExp(`at most ${READ_LIMITS[option.cap]} bytes`));
        assert.ok(said.includes(path) || said.includes(option.file), `the file is named: ${said}`);
        assert.ok(
          process.memoryUsage().rss < 1024 * 1024 * 1024,
          `RSS stays bounded: ${process.memoryUsage().rss} bytes`,
        );
      });
    }
  }
});
