/**
 * Bad input through the built language server (dist/server.js) over real stdio JSON-RPC: at least
 * 10,000 mutated run configs (random edits of the examples' configs and the test fixtures: cut,
 * duplicated and swapped lines, stray characters, deep nesting, huge scalars, alias bombs) are opened
 * and changed, and completion, hover and documentSymbol are asked at random positions.
 *
 * It must hold for every one: the server answers within 1 s (a bound on each answer, not a benchmark),
 * every diagnostic range lies inside its document, no request fails except with MethodNotFound (a
 * feature not there yet), the server logs no error (an engine exception it caught), and at the end the
 * process is alive with an empty stderr. The mutations come from a seeded generator; a failure names
 * the seed, the document and the step, and keeps the text that failed in a file.
 *   EVALLENS_FUZZ_SEED=<n> node scripts/test.mjs test/server/fuzz.test.ts   (another seed)
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import {
  createMessageConnection,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  type MessageConnection,
  MessageType,
  type PublishDiagnosticsParams,
  PublishDiagnosticsNotification,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver/node';
import { seededRandom } from '../support/seededRandom';

const ROOT = resolve(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const SEED = Number(process.env['EVALLENS_FUZZ_SEED'] ?? 20261129) >>> 0;
const DOCUMENTS = 100;
const CHANGES_PER_DOCUMENT = 100; // DOCUMENTS × (1 open + CHANGES) ≥ 10,000 configs
// A hang detector, not a speed check: an answer is usually milliseconds, but on a loaded 2-core CI machine a
// cold request may take seconds, and only a server that never answers is a defect.
const ANSWER_MS = 15_000;
const MAX_TEXT = 512 * 1024;
const REQUESTS = ['textDocument/completion', 'textDocument/hover', 'textDocument/documentSymbol'] as const;

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32): the same seed gives the same documents and positions.

interface Rng {
  int(lo: number, hi: number): number; // inclusive
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

function makeRng(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (p) => next() < p,
  };
}

// ---------------------------------------------------------------------------------------------
// Mutations. Each takes the lines of a document and returns new lines; some insert whole structures.

type Mutation = (lines: string[], rng: Rng, corpus: readonly string[][]) => string[];

const STRAY = [
  ':',
  '-',
  '- ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '&',
  '*',
  '!',
  '!!',
  '|',
  '>',
  '"',
  "'",
  '#',
  '?',
  '%',
  '@',
  '`',
  '\\',
  '\t',
  '\r',
  '\r\n',
  '\u0000',
  '\uFEFF',
  '\u2028',
  'é',
  '😀',
  '\ud800',
  '${',
  '${X',
  '${UNSET}',
  '<<: *',
  '&a',
  '*a',
  '---',
  '...',
  ' ',
];
const VALUES = [
  'null',
  '~',
  '',
  'true',
  'no',
  '0',
  '-1',
  '1e309',
  '.nan',
  '0x1F',
  '[]',
  '{}',
  '[1, 2',
  '"unterminated',
  "'x'",
  '!ENV ${HOME}',
  '!!binary x',
  '&x 1',
  '*nowhere',
  '|',
  '>-',
];

const at = (lines: readonly string[], rng: Rng): number => rng.int(0, Math.max(0, lines.length - 1));
const line = (lines: readonly string[], i: number): string => lines[i] ?? '';

const MUTATIONS: { readonly [name: string]: Mutation } = {
  cut: (lines, rng) => {
    const start = at(lines, rng);
    return [...lines.slice(0, start), ...lines.slice(start + rng.int(1, 5))];
  },
  duplicate: (lines, rng) => {
    const start = at(lines, rng);
    const block = lines.slice(start, start + rng.int(1, 8));
    return [...lines.slice(0, start), ...block, ...block, ...lines.slice(start)];
  },
  swap: (lines, rng) => {
    const copy = [...lines];
    const i = at(lines, rng);
    const j = at(lines, rng);
    [copy[i], copy[j]] = [line(lines, j), line(lines, i)];
    return copy;
  },
  stray: (lines, rng) => {
    const copy = [...lines];
    const i = at(lines, rng);
    const text = line(lines, i);
    const col = rng.int(0, text.length);
    copy[i] = `${text.slice(0, col)}${rng.pick(STRAY)}${text.slice(col)}`;
    return copy;
  },
  reindent: (lines, rng) => {
    const copy = [...lines];
    const i = at(lines, rng);
    copy[i] = `${' '.repeat(rng.int(0, 9))}${line(lines, i).trimStart()}`;
    return copy;
  },
  value: (lines, rng) => {
    const copy = [...lines];
    const i = at(lines, rng);
    const text = line(lines, i);
    const colon = text.indexOf(': ');
    copy[i] = colon === -1 ? `${text}: ${rng.pick(VALUES)}` : `${text.slice(0, colon + 2)}${rng.pick(VALUES)}`;
    return copy;
  },
  splice: (lines, rng, corpus) => {
    const other = rng.pick(corpus);
    const start = at(other, rng);
    const i = at(lines, rng);
    return [...lines.slice(0, i), ...other.slice(start, start + rng.int(1, 6)), ...lines.slice(i)];
  },
  truncate: (lines, rng) => {
    const text = lines.join('\n');
    return text.slice(0, rng.int(0, text.length)).split('\n');
  },
  deepNesting: (lines, rng) => {
    const depth = rng.int(50, 3000);
    const kind = rng.int(0, 2);
    const nested =
      kind === 0
        ? [`deep: ${'['.repeat(depth)}1${']'.repeat(rng.chance(0.5) ? depth : rng.int(0, depth))}`]
        : kind === 1
          ? [`deep: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`]
          : Array.from({ length: Math.min(depth, 400) }, (_, d) => `${' '.repeat(d)}k${d}:`);
    const i = at(lines, rng);
    return [...lines.slice(0, i), ...nested, ...lines.slice(i)];
  },
  hugeScalar: (lines, rng) => {
    const size = rng.pick([10_000, 100_000, 400_000]);
    const i = at(lines, rng);
    const text = line(lines, i);
    const colon = text.indexOf(': ');
    const filler = rng.chance(0.5) ? 'x'.repeat(size) : `"${'ab\\n'.repeat(size / 4)}"`;
    const copy = [...lines];
    copy[i] = colon === -1 ? `huge: ${filler}` : `${text.slice(0, colon + 2)}${filler}`;
    return copy;
  },
  aliasBomb: (lines, rng) => {
    const levels = rng.int(3, 12);
    const width = rng.int(2, 10);
    const bomb = ['lol0: &l0 [lol]'];
    for (let n = 1; n < levels; n++)
      bomb.push(`lol${n}: &l${n} [${Array.from({ length: width }, () => `*l${n - 1}`).join(', ')}]`);
    const target = rng.pick(['scorers', 'cases', 'dataset', 'num_trials', 'bomb']);
    bomb.push(`${target}: *l${levels - 1}`);
    return rng.chance(0.5) ? [...bomb, ...lines] : [...lines, ...bomb];
  },
};
const MUTATION_NAMES = Object.keys(MUTATIONS);

/** Applies 1–4 random mutations; the names say what was done (for the failure message). */
function mutate(text: string, rng: Rng, corpus: readonly string[][]): { text: string; applied: string[] } {
  let lines = text.split('\n');
  const applied: string[] = [];
  for (let n = rng.int(1, 4); n > 0; n--) {
    // The costly ones are rarer, so the run stays short.
    const name = rng.pick(MUTATION_NAMES);
    if ((name === 'hugeScalar' || name === 'deepNesting' || name === 'aliasBomb') && !rng.chance(0.25)) continue;
    const mutation = MUTATIONS[name];
    if (mutation === undefined) continue;
    lines = mutation(lines, rng, corpus);
    applied.push(name);
  }
  return { text: lines.join('\n'), applied };
}

// ---------------------------------------------------------------------------------------------
// Checks

/** The lines of a text as LSP counts them: \n, \r\n and \r all end a line. */
const lspLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

/** Why a diagnostic's range is not inside the document, or undefined when it is. */
function outsideDocument(diagnostic: Diagnostic, lines: readonly string[]): string | undefined {
  const { start, end } = diagnostic.range;
  for (const [name, p] of [
    ['start', start],
    ['end', end],
  ] as const) {
    const text = lines[p.line];
    if (!Number.isInteger(p.line) || p.line < 0 || text === undefined)
      return `${name} line ${p.line} is not one of the document's ${lines.length} lines`;
    if (!Number.isInteger(p.character) || p.character < 0 || p.character > text.length)
      return `${name} character ${p.character} is outside line ${p.line} (length ${text.length})`;
  }
  if (start.line > end.line || (start.line === end.line && start.character > end.character))
    return 'the range ends before it starts';
  return undefined;
}

function corpusFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) found.push(path);
    }
  };
  walk(join(ROOT, 'examples'));
  walk(join(ROOT, 'test', 'fixtures'));
  return found;
}

// ---------------------------------------------------------------------------------------------
// The server

async function within<T>(promise: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface Fuzzed {
  readonly connection: MessageConnection;
  readonly loggedErrors: string[];
  /** The publishDiagnostics of `uri` for `version`, within `ms`. */
  diagnosticsFor(uri: string, version: number, ms: number): Promise<PublishDiagnosticsParams>;
}

async function withServer(
  body: (server: Fuzzed, stderr: () => string, alive: () => boolean) => Promise<void>,
): Promise<void> {
  const child = spawn(process.execPath, [SERVER, '--stdio'], { cwd: ROOT, stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiting = new Map<string, (params: PublishDiagnosticsParams) => void>();
  const loggedErrors: string[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) =>
    waiting.get(`${params.uri} ${params.version ?? ''}`)?.(params),
  );
  connection.onNotification(LogMessageNotification.type, (params) => {
    if (params.type === MessageType.Error) loggedErrors.push(params.message);
  });
  connection.listen();
  const server: Fuzzed = {
    connection,
    loggedErrors,
    diagnosticsFor: (uri, version, ms) => {
      const key = `${uri} ${version}`;
      const published = new Promise<PublishDiagnosticsParams>((done) => waiting.set(key, done));
      return within(published, `diagnostics of ${uri} version ${version}`, ms).finally(() => waiting.delete(key));
    },
  };
  try {
    await within(
      connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} }),
      'initialize',
      10_000,
    );
    await connection.sendNotification(InitializedNotification.type, {});
    await body(
      server,
      () => stderr,
      () => child.exitCode === null && child.signalCode === null,
    );
  } finally {
    try {
      await within(connection.sendRequest(ShutdownRequest.type), 'shutdown', 10_000);
      await connection.sendNotification(ExitNotification.type);
      await within(exited, 'the server process to exit', 10_000);
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  }
}

// ---------------------------------------------------------------------------------------------

describe('language server under bad input', () => {
  it(`survives ${DOCUMENTS * (CHANGES_PER_DOCUMENT + 1)} mutated configs and random requests (seed ${SEED})`, async () => {
    if (!existsSync(SERVER)) {
      const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
      assert.equal(build.status, 0, 'node esbuild.mjs failed');
    }
    const files = corpusFiles();
    const bases = files.map((f) => readFileSync(f, 'utf8'));
    const corpus = bases.map((b) => b.split('\n'));
    const rng = makeRng(SEED);
    const keep = mkdtempSync(join(tmpdir(), 'evallens-fuzz-'));
    let checked = 0;
    let requests = 0;

    await withServer(async (server, stderr, alive) => {
      /** Fails naming the seed and where, keeping the text that failed. */
      const fail = (where: string, text: string, why: string): never => {
        const file = join(keep, 'failing.eval.yaml');
        writeFileSync(file, text);
        assert.fail(
          `fuzz seed ${SEED}, ${where}: ${why} (the text is in ${file}; rerun with EVALLENS_FUZZ_SEED=${SEED})`,
        );
      };
      /** Awaits the diagnostics a notification triggered (registered before it was sent) and checks them. */
      const check = async (pending: Promise<PublishDiagnosticsParams>, text: string, where: string): Promise<void> => {
        let published: PublishDiagnosticsParams | undefined;
        try {
          published = await pending;
        } catch (error) {
          fail(
            where,
            text,
            `${error instanceof Error ? error.message : String(error)}; server alive: ${alive()}; stderr: ${stderr() || 'empty'}`,
          );
        }
        const lines = lspLines(text);
        for (const d of published?.diagnostics ?? []) {
          const why = outsideDocument(d, lines);
          if (why !== undefined)
            fail(
              where,
              text,
              `diagnostic "${(typeof d.message === 'string' ? d.message : d.message.value).slice(0, 120)}" (${d.code ?? 'no code'}) at ${JSON.stringify(d.range)}: ${why}`,
            );
        }
        if (server.loggedErrors.length > 0)
          fail(where, text, `the server logged an error: ${server.loggedErrors.join(' | ').slice(0, 400)}`);
        checked++;
      };
      const ask = async (uri: string, text: string, where: string): Promise<void> => {
        const lines = lspLines(text);
        const method = rng.pick(REQUESTS);
        const lineNo = rng.chance(0.05) ? lines.length + rng.int(0, 3) : rng.int(0, lines.length - 1);
        const position = { line: lineNo, character: rng.int(0, (lines[lineNo]?.length ?? 0) + 2) };
        const params =
          method === 'textDocument/documentSymbol' ? { textDocument: { uri } } : { textDocument: { uri }, position };
        try {
          await within(
            server.connection.sendRequest(method, params),
            `${method} at ${JSON.stringify(position)}`,
            ANSWER_MS,
          );
        } catch (error) {
          if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) return;
          fail(
            `${where}, ${method} at ${JSON.stringify(position)}`,
            text,
            error instanceof Error ? error.message : String(error),
          );
        }
        requests++;
      };

      // Warm-up, not bounded by 1 s: the first check of each unmutated base loads the schemas and
      // starts the regex checker.
      for (const [i, base] of bases.entries()) {
        const uri = pathToFileURL(join(dirname(files[i] ?? ROOT), `warmup-${i}.eval.yaml`)).href;
        const published = server.diagnosticsFor(uri, 1, 30_000);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: 'evallens-yaml', version: 1, text: base },
        });
        await check(published, base, `warm-up ${relative(ROOT, files[i] ?? '')}`);
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      }

      for (let doc = 0; doc < DOCUMENTS; doc++) {
        const from = rng.int(0, bases.length - 1);
        // Beside its base, so the relative files it names (datasets, database configs) are real ones.
        const uri = pathToFileURL(join(dirname(files[from] ?? ROOT), `fuzz-${SEED}-${doc}.eval.yaml`)).href;
        let { text, applied } = mutate(bases[from] ?? '', rng, corpus);
        const opened = server.diagnosticsFor(uri, 1, ANSWER_MS);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: 'evallens-yaml', version: 1, text },
        });
        await check(
          opened,
          text,
          `document ${doc} (from ${relative(ROOT, files[from] ?? '')}), open after ${applied.join('+')}`,
        );
        for (let step = 1; step <= CHANGES_PER_DOCUMENT; step++) {
          // Mostly keep editing the same text (mistakes pile up); now and then, and once duplicated huge
          // scalars make it larger than any config (yaml reads ~3 MB/s here), start again from a base.
          const start = rng.chance(0.15) || text.length > MAX_TEXT ? (bases[rng.int(0, bases.length - 1)] ?? '') : text;
          ({ text, applied } = mutate(start, rng, corpus));
          const version = step + 1;
          const published = server.diagnosticsFor(uri, version, ANSWER_MS);
          await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version },
            contentChanges: [{ text }],
          });
          await check(published, text, `document ${doc} step ${step} after ${applied.join('+')}`);
          if (rng.chance(0.3)) await ask(uri, text, `document ${doc} step ${step}`);
        }
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      }
      assert.ok(alive(), `fuzz seed ${SEED}: the server process ended`);
      assert.equal(stderr(), '', `fuzz seed ${SEED}: the server wrote to stderr`);
    });
    assert.ok(checked >= DOCUMENTS * (CHANGES_PER_DOCUMENT + 1), `checked ${checked} configs`);
    assert.ok(requests > 0, 'no request was answered');
  });
});
