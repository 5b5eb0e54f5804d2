import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { Diagnostics, Parameters } from 'recheck';

/**
 * The ReDoS checker (recheck), run so that it is bounded in time and silent.
 *
 * recheck has two checkers: a native one (a GraalVM binary, in the optional package
 * `recheck-<os>-<arch>`) and the same checker compiled to JavaScript (2.9 MB in `recheck/lib/main.js`).
 * recheck's own `check` starts the native one with its stderr inherited, so a pattern it crashes on
 * (e.g. `^(a|\1a)+$`) prints a 1,000-line Java StackOverflowError trace into our output, and that
 * pattern is never answered. So:
 * - `native`: we start the binary's `agent` mode ourselves (JSON lines on stdin/stdout) with stderr
 *   piped to us and never shown. A Java exception on its stderr answers the pattern in flight at once
 *   ("crashed") and the agent is restarted. Starting it costs ~20 ms (the JavaScript checker: ~300 ms
 *   to load, and seconds before its first answers are fast), so this is the default where it exists.
 * - `pure`: where there is no binary (the packaged extension ships only the JavaScript checker), the
 *   JavaScript checker runs in the worker thread itself (recheck's `pure` backend).
 * Either way the check runs in a worker thread of ours; the caller waits with a hard deadline
 * (Atomics.wait) and replaces the worker when it passes.
 */

export type CheckerBackend = 'native' | 'pure';

/** What the worker answers: recheck's diagnostics, or why there are none. */
export type RecheckAnswer =
  | Diagnostics
  | {
      readonly status: 'failed';
      readonly message: string;
      /**
       * `start`: the checker could not start; `deadline`: no answer in time; `stopped`: it ended
       * before answering — none of them says much about the pattern. `crash` (a Java exception on
       * this pattern) and `error` (the JavaScript checker threw) do.
       */
      readonly cause: 'start' | 'crash' | 'deadline' | 'stopped' | 'error';
    };

/**
 * How long recheck may think about one pattern at load, by backend. The JavaScript checker gets more:
 * it is several times slower, and slower still in its first seconds (the JIT warms up), so with one
 * second it would leave patterns it finds vulnerable today undecided.
 */
export const RECHECK_TIMEOUT_MS: Readonly<Record<CheckerBackend, number>> = { native: 800, pure: 5000 };

/**
 * recheck's parameters besides its time limit, the same for both backends, so that its verdict for a
 * pattern depends on counted steps only, never on how busy the machine is. recheck's fuzz checker (used
 * for patterns with lookarounds, e.g. every translated Python `\b`) also has wall-clock criteria:
 * a string whose match takes longer than `incubationTimeout` (250 ms) or `attackTimeout` (1 s) counts as
 * an attack exactly as one that reaches its step limit does. On a CPU-starved machine a merely slow string
 * then makes a linear pattern "vulnerable" (seen at load 7 on the NL2SQL example's `\bselect\s+\*`), and
 * that verdict is kept on disk. So every wall-clock criterion is off (`null`: no limit; recall validation,
 * timed only, stays skipped as by default) and the step limits alone decide; the overall `timeout` is
 * the only time bound, and its answer (`unknown`, timeout) is already treated as load-dependent.
 * `attackLimit` is 1/15 of recheck's default (1.5e9 characters read): without `attackTimeout` an attack
 * string must reach it by steps, and at the default the JavaScript checker took longer than its time
 * limit to confirm polynomial patterns it confirms today by `attackTimeout`. An attack string is sized
 * from this limit (its length to the power of the degree tried is about the limit), so a pattern still
 * has to read ~1e8 characters of a 1e4-character string (degree 2) to count: linear patterns never do.
 * `randomSeed` is recheck's default, fixed (0), so the fuzzer tries the same strings every time.
 */
export const RECHECK_STEP_PARAMETERS = {
  incubationTimeout: null,
  attackTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  attackLimit: 100_000_000,
  randomSeed: 0,
} as const satisfies Parameters;

/** What recheck is asked with for one pattern: the step parameters and its overall time limit. */
export function recheckParameters(timeoutMs: number): Parameters {
  return { ...RECHECK_STEP_PARAMETERS, timeout: timeoutMs };
}

/**
 * The name of a checker in the key of kept verdicts: recheck's version, the backend, and a digest of the
 * step parameters, so a verdict reached with other parameters (or before they were fixed, when the
 * machine's load could decide it) is never reused.
 */
export function checkerIdentity(
  version: string,
  backend: CheckerBackend,
  stepParameters: Readonly<Record<string, unknown>> = RECHECK_STEP_PARAMETERS,
): string {
  return `recheck@${version}/${backend}/steps-${fnv1a(JSON.stringify(stepParameters))}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short name for a parameter set (not a security measure). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** How much longer than recheck's own time limit the caller waits for an answer once the checker has the pattern. */
const DEADLINE_GRACE_MS = 500;
/**
 * How long the checker may take to start (a worker thread, then the native binary or the JavaScript
 * checker): ~50 ms here, but seconds on a machine loaded many times over, and a pattern's time limit
 * should not be spent on that.
 */
const START_LIMIT_MS = 10_000;

interface CheckerSetup {
  readonly backend: CheckerBackend;
  /**
   * `recheck@<version>/<backend>/steps-<digest>`: verdicts are kept per checker (a version, backend or
   * parameter set may answer differently).
   */
  readonly identity: string;
  readonly recheckMain: string;
  readonly nativeBinary?: string;
}

const PLATFORMS: Readonly<Record<string, string>> = { darwin: 'macos', linux: 'linux', win32: 'windows' };

/** Which checker runs here; `prefer` (tests, benchmarks) asks for the JavaScript one. */
function findChecker(prefer: CheckerBackend | undefined): CheckerSetup {
  const recheckMain = require.resolve('recheck');
  const packageFile = join(dirname(recheckMain), 'package.json');
  const version = (JSON.parse(readFileSync(packageFile, 'utf8')) as { version?: string }).version ?? 'unknown';
  const binary = prefer === 'pure' ? undefined : nativeBinary(dirname(recheckMain));
  const backend: CheckerBackend = binary === undefined ? 'pure' : 'native';
  return {
    backend,
    identity: checkerIdentity(version, backend),
    recheckMain,
    ...(binary === undefined ? {} : { nativeBinary: binary }),
  };
}

/** recheck's native binary for this platform, found as recheck finds it (next to its own package). */
function nativeBinary(recheckDir: string): string | undefined {
  const os = PLATFORMS[process.platform];
  if (os === undefined || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  try {
    const packageFile = require.resolve(`recheck-${os}-${process.arch}/package.json`, { paths: [recheckDir] });
    const binary = join(dirname(packageFile), os === 'windows' ? 'recheck.exe' : 'recheck');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node's threads, loaded when the checker first starts or answers: a process whose patterns all have kept
 * verdicts (a warm `validate`) asks only which checker would answer (checker()), and never loads them.
 */
function threads(): typeof import('node:worker_threads') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('node:worker_threads') as typeof import('node:worker_threads');
}

export class RecheckWorker {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private setup: CheckerSetup | undefined;
  private preferred: CheckerBackend | undefined;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 0;

  /** `parameters` builds what recheck is asked with (recheckParameters; a test may watch or change it). */
  constructor(private readonly parameters: (timeoutMs: number) => Parameters = recheckParameters) {}

  /** Chooses the backend (`pure` forces the JavaScript checker); takes effect on the next start. */
  prefer(backend: CheckerBackend | undefined): void {
    if (backend === this.preferred) return;
    this.preferred = backend;
    this.reset();
    this.setup = undefined;
  }

  /** Which checker answers, found without starting it (the key of kept verdicts). */
  checker(): CheckerSetup {
    this.setup ??= findChecker(this.preferred);
    return this.setup;
  }

  check(source: string, flags: string, timeoutMs: number): RecheckAnswer {
    let port: MessagePort;
    try {
      port = this.connect();
    } catch (e) {
      return {
        status: 'failed',
        cause: 'start',
        message: `the ReDoS checker could not start: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    const id = ++this.nextId;
    port.postMessage({ id, source, flags, params: this.parameters(timeoutMs) });
    // Until the checker says it has the pattern (it may still be starting), the start limit counts too.
    let deadline = performance.now() + START_LIMIT_MS + timeoutMs + DEADLINE_GRACE_MS;
    for (;;) {
      // Read the counter before looking at the port, so an answer posted in between is not missed.
      const seen = Atomics.load(this.signal, 0);
      const received = threads().receiveMessageOnPort(port);
      if (received !== undefined) {
        const message = received.message as {
          id: number;
          checking?: true;
          result?: Diagnostics;
          error?: string;
          cause?: string;
        };
        if (message.id !== id) continue;
        if (message.checking === true) {
          deadline = performance.now() + timeoutMs + DEADLINE_GRACE_MS;
          continue;
        }
        if (message.result !== undefined) return message.result;
        const cause =
          message.cause === 'start' || message.cause === 'crash' || message.cause === 'stopped'
            ? message.cause
            : 'error';
        return { status: 'failed', cause, message: message.error ?? 'no answer' };
      }
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.signal, 0, seen, left);
    }
    this.reset();
    return { status: 'failed', cause: 'deadline', message: 'the ReDoS checker gave no answer in time' };
  }

  /** Starts the worker (and the native checker) if it is not running, without waiting for it. */
  start(): void {
    try {
      this.connect();
    } catch {
      // The first check reports why it could not start.
    }
  }

  private connect(): MessagePort {
    if (this.port !== undefined) return this.port;
    const setup = this.checker();
    const { MessageChannel, Worker } = threads();
    const channel = new MessageChannel();
    const worker = new Worker(RECHECK_WORKER_SOURCE, {
      eval: true,
      workerData: {
        recheck: setup.recheckMain,
        nativeBinary: setup.nativeBinary,
        port: channel.port2,
        signal: this.signal,
      },
      transferList: [channel.port2],
      // The worker writes nothing; whatever a library would print there is not ours to show.
      stdout: true,
      stderr: true,
    });
    worker.unref();
    worker.on('error', () => this.reset());
    this.worker = worker;
    this.port = channel.port1;
    return channel.port1;
  }

  /** Ends the worker, and with it the native checker (its stdin closes); the next check starts anew. */
  reset(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
  }
}

// Plain JavaScript, run with `eval` in the worker (the bundles have no separate worker file).
const RECHECK_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { port, signal, nativeBinary, recheck } = workerData;
const CRASH = /Exception in thread|StackOverflowError|OutOfMemoryError/;

function reply(message) {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

// The native checker's agent mode: one JSON object a line each way. Its stderr is read, never shown.
let agent;
let rpcId = 0;
function startAgent() {
  const child = spawn(nativeBinary, ['agent'], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const state = { child, pending: new Map(), buffer: '', errors: '' };
  const fail = (cause, message) => {
    if (agent === state) agent = undefined;
    child.kill();
    for (const done of state.pending.values()) done({ cause, error: message });
    state.pending.clear();
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    state.buffer += text;
    for (let end = state.buffer.indexOf('\\n'); end >= 0; end = state.buffer.indexOf('\\n')) {
      const line = state.buffer.slice(0, end);
      state.buffer = state.buffer.slice(end + 1);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      const done = state.pending.get(message.id);
      if (done === undefined || message.result === undefined) continue;
      state.pending.delete(message.id);
      done({ result: message.result });
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    state.errors = (state.errors + text).slice(-2000);
    if (CRASH.test(state.errors)) fail('crash', 'the ReDoS checker crashed on this pattern');
  });
  child.stdin.on('error', () => {});
  child.on('error', (e) => fail('start', 'the ReDoS checker could not start: ' + e.message));
  child.on('close', () => fail('stopped', 'the ReDoS checker stopped'));
  state.ready = request(state, 'ping', {});
  return state;
}

function request(state, method, params) {
  const id = ++rpcId;
  const answer = new Promise((done) => state.pending.set(id, done));
  state.child.stdin.write(JSON.stringify({ jsonrpc: '2.0+push', id, method, params }) + '\\n');
  return answer;
}

async function checkNative(id, source, flags, params) {
  agent ??= startAgent();
  const state = agent;
  const ready = await state.ready;
  if (ready.result === undefined) return ready;
  started(id);
  return request(state, 'check', { source, flags, params });
}

// The checker has the pattern now: its time limit starts.
function started(id) {
  reply({ id, checking: true });
}

// The JavaScript checker, in this thread (recheck's 'pure' backend reads this thread's copy of env).
let pure;
function loadPure() {
  process.env.RECHECK_BACKEND = 'pure';
  pure ??= require(recheck).check;
  return pure;
}
function checkPure(id, source, flags, params) {
  const check = loadPure();
  started(id);
  return check(source, flags, params).then(
    (result) => ({ result }),
    (e) => ({ cause: 'error', error: String((e && e.message) || e) }),
  );
}

if (nativeBinary) {
  agent = startAgent();
} else {
  // Loading the JavaScript checker and building its case-folding tables take ~50 ms each, cold: do
  // both now, while the host has other work.
  try {
    loadPure()('^a-\\\\d+$', 'iu', { timeout: 1000 }).catch(() => {});
  } catch {}
}

// Both backends get the host's parameters as they are (recheckParameters): nothing is added here.
port.on('message', async ({ id, source, flags, params }) => {
  let answer;
  try {
    answer = await (nativeBinary ? checkNative(id, source, flags, params) : checkPure(id, source, flags, params));
  } catch (e) {
    answer = { cause: 'error', error: String((e && e.message) || e) };
  }
  reply({ id, ...answer });
});
`;
