import vm from 'node:vm';
import { withoutCharLookarounds } from './charLookarounds';
import type { CheckerBackend, RecheckAnswer, RecheckWorker } from './recheckWorker';

/**
 * ECMAScript regular expressions with a ReDoS check at load and a time limit at match.
 *
 * At load, `checkPatternSafety` compiles the pattern (always with the `u` flag) and asks `recheck`
 * whether it can backtrack catastrophically. At match, `BoundedRegex` runs it one of two ways:
 * - `direct`: recheck proved it safe with its automaton checker, so it runs in this thread, as fast
 *   as a plain `RegExp` (bounded by the proof and the input length limit). Its elapsed time is still
 *   measured; past the limit the answer is `timeout` even though the match finished.
 * - `isolated`: recheck could not decide (`unknown`), or only fuzzed it (`safe (fuzz)` is no proof).
 *   It runs in a `vm` context with `timeout`, which really interrupts a runaway match (~0.1 ms per
 *   call for the watchdog, instead of ~0.1 µs).
 * Patterns recheck finds vulnerable are never run: callers refuse them at load.
 *
 * recheck itself runs in a worker thread with a hard deadline, silenced (see recheckWorker.ts), so a
 * pattern it chokes on makes the answer `unknown` (run isolated) instead of hanging the config load.
 * Its verdicts never change for one checker (version, backend, step parameters) and time limit: recheck
 * decides by counted steps only (RECHECK_STEP_PARAMETERS), and its one time-dependent answer, `unknown`
 * for running out of time, is kept only when the machine was idle. So hosts keep them (`form.verdicts`;
 * the CLI and the language server on disk too, shared/regexVerdicts/verdictStore.ts).
 */

/** Flags patterns may use (the `u` flag is always added). */
export const PATTERN_FLAGS = 'imsu';

export interface PatternHotspot {
  /** 0-based UTF-16 offsets into the pattern source as written (not as wrapped for full_match). */
  readonly start: number;
  readonly end: number;
  /** The part of the pattern (config, not payload) recheck blames. */
  readonly text: string;
}

export type PatternSafety =
  | { readonly status: 'invalid'; readonly message: string }
  | { readonly status: 'safe'; readonly proven: boolean; readonly complexity: string }
  | {
      readonly status: 'vulnerable';
      readonly complexity: 'exponential' | 'polynomial';
      readonly degree?: number;
      readonly hotspots: readonly PatternHotspot[];
      readonly message: string;
    }
  | { readonly status: 'unknown'; readonly message: string };

export interface PatternForm {
  /** Check and run the pattern as it is run for a whole-text match (`^(?:p)$`), not as written. */
  readonly fullMatch?: boolean;
  /** How long recheck may take before the answer is `unknown` (default: RECHECK_TIMEOUT_MS of the backend). */
  readonly checkTimeoutMs?: number;
  /** Where verdicts are kept between checks (the host's engine context); absent: every check asks recheck. */
  readonly verdicts?: VerdictCache;
}

/** How long a verdict may be kept (see VerdictCache.set). */
export type Durability = boolean | 'if-idle';

/** A host's kept verdicts (core/engineContext.ts: a BoundedCache, so bounded). */
export interface VerdictCache {
  get(key: string): PatternSafety | undefined;
  /**
   * `durable: false`: for this process only (an answer that says more about the machine's load than the
   * pattern). `'if-idle'`: the checker ran out of its time limit, which on a busy machine may say only that
   * the machine was busy; a store that outlives the process keeps it only when it can tell the machine was not.
   */
  set(key: string, value: PatternSafety, durable?: Durability): void;
}

/** The flags a pattern runs with: the given ones (of `imsu`) plus `u`, sorted, without duplicates. */
export function normalizeFlags(flags: string): string {
  return [...new Set(`${flags}u`)]
    .filter((f) => PATTERN_FLAGS.includes(f))
    .sort()
    .join('');
}

/**
 * The source that is run for a whole-text match. Without the `m` flag, `^(?:p)$`. With it, `^` and
 * `$` would anchor at line ends, so the whole text is anchored with lookarounds instead:
 * `(?<![\s\S])(?:p)(?![\s\S])`. Either way the pattern must match all of the text, never "the first
 * match equals the text".
 */
export function fullMatchSource(source: string, flags: string): { readonly source: string; readonly offset: number } {
  if (normalizeFlags(flags).includes('m'))
    return { source: `(?<![\\s\\S])(?:${source})(?![\\s\\S])`, offset: '(?<![\\s\\S])(?:'.length };
  return { source: `^(?:${source})$`, offset: '^(?:'.length };
}

/** Compiles a pattern as an ECMAScript regular expression with the `u` flag. */
export function compilePattern(
  source: string,
  flags: string,
): { readonly ok: true; readonly regexp: RegExp } | { readonly ok: false; readonly message: string } {
  const normalized = normalizeFlags(flags);
  try {
    return { ok: true, regexp: new RegExp(source, normalized) };
  } catch (e) {
    const why =
      e instanceof Error ? e.message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '') : String(e);
    return {
      ok: false,
      message: `does not compile as an ECMAScript regular expression with flags "${normalized}": ${why}`,
    };
  }
}

/**
 * Whether a pattern compiles and whether it can backtrack catastrophically, with a message that
 * names the part of the pattern at fault. Results are kept in `form.verdicts` when given (the host's
 * engine context), by checker, time limit, flags and the source as checked. The language server
 * reuses this for diagnostics.
 */
export function checkPatternSafety(source: string, flags: string, form: PatternForm = {}): PatternSafety {
  const compiled = compilePattern(source, flags);
  if (!compiled.ok) return { status: 'invalid', message: compiled.message };
  const normalized = normalizeFlags(flags);
  const run = form.fullMatch === true ? fullMatchSource(source, normalized) : { source, offset: 0 };
  const checker = patternChecker().checker();
  const timeoutMs = form.checkTimeoutMs ?? recheckModule().RECHECK_TIMEOUT_MS[checker.backend];
  const reduced = withoutCharLookarounds(run.source);
  // Patterns the reduction applies to are kept apart from verdicts reached before it existed (a fuzzer's
  // `unknown`, kept on an idle machine, would otherwise hide the proof for good).
  const identity = reduced === run.source ? checker.identity : `${checker.identity}/char-lookarounds-aside`;
  const key = verdictKey(identity, timeoutMs, normalized, run.source);
  const cached = form.verdicts?.get(key);
  if (cached !== undefined) return cached;
  const aside = reduced === run.source ? undefined : safeWithoutCharLookarounds(reduced, normalized, timeoutMs);
  if (aside !== undefined) {
    form.verdicts?.set(key, aside, true);
    return aside;
  }
  const answer = patternChecker().check(run.source, normalized, timeoutMs);
  const safety = interpret(answer, source, run.offset);
  // A checker that could not start says nothing about the pattern: ask again next time. One that gave
  // no answer by the deadline, or stopped, may just be slow on a loaded machine: kept for this process only.
  // recheck's own "timeout" is the same doubt: a pattern it decides in 0.3 s idle may run out of 0.8 s under load.
  const cause = answer.status === 'failed' ? answer.cause : undefined;
  const outOfTime = answer.status === 'unknown' && answer.error.kind === 'timeout';
  if (cause !== 'start') {
    form.verdicts?.set(key, safety, cause === 'deadline' || cause === 'stopped' ? false : outOfTime ? 'if-idle' : true);
  }
  return safety;
}

/**
 * The verdict for a pattern with one-character lookarounds (every translated Python `\b`), given the
 * pattern without them (see charLookarounds.ts), when recheck's automaton checker proves that one safe:
 * safe, but unproven, so it still runs isolated. Undefined otherwise; the pattern is then checked as written.
 */
function safeWithoutCharLookarounds(reduced: string, flags: string, timeoutMs: number): PatternSafety | undefined {
  const answer = patternChecker().check(reduced, flags, timeoutMs);
  if (answer.status !== 'safe' || answer.complexity.isFuzz) return undefined;
  return {
    status: 'safe',
    proven: false,
    complexity: `${answer.complexity.summary} (one-character lookarounds set aside)`,
  };
}

/**
 * The key a verdict is kept under: everything it depends on (checker, its time limit, flags, the
 * source as checked), unambiguously joined.
 */
export function verdictKey(checker: string, timeoutMs: number, flags: string, source: string): string {
  return JSON.stringify([checker, timeoutMs, flags, source]);
}

/**
 * The checker's module (worker_threads, recheck's set-up) loads with the first pattern, not with this
 * module: most commands and configs check none (`--version`, `--help`, a config without patterns).
 */
function recheckModule(): typeof import('./recheckWorker') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./recheckWorker') as typeof import('./recheckWorker');
}

let recheckWorker: RecheckWorker | undefined;
/** The backend asked for before the worker was made (preferPatternChecker). */
let preferredBackend: CheckerBackend | undefined;

function patternChecker(): RecheckWorker {
  if (recheckWorker === undefined) {
    recheckWorker = new (recheckModule().RecheckWorker)();
    recheckWorker.prefer(preferredBackend);
  }
  return recheckWorker;
}

/**
 * Starts the ReDoS checker's worker thread now, without waiting: recheck then loads in its own thread
 * while the host does other work (the language server, while it parses the config it will check).
 */
export function startPatternChecker(): void {
  patternChecker().start();
}

/**
 * Chooses the ReDoS checker: `pure` runs recheck's JavaScript checker even where its native one is
 * installed (benchmarks and tests compare them); undefined, the native one where it exists.
 */
export function preferPatternChecker(backend: CheckerBackend | undefined): void {
  preferredBackend = backend;
  recheckWorker?.prefer(backend);
}

/**
 * Ends the ReDoS checker's worker thread, which holds recheck (tens of megabytes) in memory. A host
 * that has loaded its config and checks no more patterns (the CLI, before a run) calls this; a later
 * check starts the worker again.
 */
export function releasePatternChecker(): void {
  recheckWorker?.reset();
}

function interpret(result: RecheckAnswer, source: string, offset: number): PatternSafety {
  switch (result.status) {
    case 'safe':
      return { status: 'safe', proven: !result.complexity.isFuzz, complexity: result.complexity.summary };
    case 'vulnerable': {
      const hot = result.hotspot.filter((h) => h.temperature === 'heat');
      const hotspots = (hot.length > 0 ? hot : result.hotspot)
        .map((h) => ({ start: Math.max(0, h.start - offset), end: Math.min(source.length, h.end - offset) }))
        .filter((h) => h.end > h.start)
        .map((h) => ({ ...h, text: source.slice(h.start, h.end) }));
      const complexity = result.complexity.type;
      const degree = result.complexity.type === 'polynomial' ? result.complexity.degree : undefined;
      const time = degree === undefined ? 'exponential' : `polynomial (degree ${degree})`;
      const where =
        hotspots.length === 0
          ? 'recheck located no single part of the pattern'
          : `the problem is ${hotspots.map((h) => `"${h.text}" at ${h.end - h.start === 1 ? `character ${h.start + 1}` : `characters ${h.start + 1}-${h.end}`}`).join(' and ')}`;
      const message = `can backtrack catastrophically: matching takes ${time} time in the input length; ${where}`;
      return degree === undefined
        ? { status: 'vulnerable', complexity, hotspots, message }
        : { status: 'vulnerable', complexity, degree, hotspots, message };
    }
    case 'unknown':
      return {
        status: 'unknown',
        message: `recheck could not decide (${result.error.kind}${'message' in result.error ? `: ${result.error.message}` : ''})`,
      };
    default:
      return { status: 'unknown', message: `recheck failed: ${result.message}` };
  }
}

/** How a pattern runs: in this thread (proven safe) or in a `vm` context that can interrupt it. */
export type RegexGuard = 'direct' | 'isolated';

/** The guard for a pattern, or undefined when it must not run at all (invalid or vulnerable). */
export function guardFor(safety: PatternSafety): RegexGuard | undefined {
  if (safety.status === 'safe') return safety.proven ? 'direct' : 'isolated';
  if (safety.status === 'unknown') return 'isolated';
  return undefined;
}

export type BoundedMatch =
  | {
      readonly status: 'matched';
      /** UTF-16 offset and length of the (first) match. */
      readonly index: number;
      readonly length: number;
      readonly elapsedMs: number;
      readonly interrupted: false;
    }
  | { readonly status: 'not_matched'; readonly elapsedMs: number; readonly interrupted: false }
  /** `interrupted`: the match was stopped; otherwise it finished but took longer than the limit. */
  | { readonly status: 'timeout'; readonly elapsedMs: number; readonly interrupted: boolean }
  | { readonly status: 'failed'; readonly message: string; readonly elapsedMs: number; readonly interrupted: false };

export interface BoundedRegexOptions {
  /** Milliseconds clock for measuring; `performance.now` unless a test injects one. */
  readonly clock?: () => number;
}

const ISOLATED_EXEC = new vm.Script(
  '(function () { var m = __re.exec(__input); return m === null ? null : [m.index, m[0].length]; })()',
  {
    filename: 'evallens-bounded-regex.vm',
  },
);

/** A compiled pattern that answers within a time limit (see the module comment for the two guards). */
export class BoundedRegex {
  readonly source: string;
  readonly flags: string;
  private readonly direct: RegExp;
  private context: vm.Context | undefined;
  private readonly clock: () => number;

  /** `regexp` as it should run; `g`, `y` and `d` are dropped so no match state carries over. */
  constructor(
    regexp: RegExp,
    readonly guard: RegexGuard,
    options: BoundedRegexOptions = {},
  ) {
    this.source = regexp.source;
    this.flags = [...regexp.flags].filter((f) => !'gyd'.includes(f)).join('');
    this.direct = new RegExp(this.source, this.flags);
    this.clock = options.clock ?? (() => performance.now());
  }

  /**
   * The first match in `input`, or `timeout` when it took (or would take) longer than `timeoutMs` twice.
   * The limit is wall-clock time, so a moment the machine was busy elsewhere (this thread descheduled on
   * a loaded machine, a garbage collection) can pass it on a match that takes microseconds; a pattern
   * that is slow on this input is slow again, so one second try tells the two apart, and a runaway
   * match costs at most twice the limit.
   */
  exec(input: string, timeoutMs: number): BoundedMatch {
    const first = this.execOnce(input, timeoutMs);
    return first.status === 'timeout' ? this.execOnce(input, timeoutMs) : first;
  }

  private execOnce(input: string, timeoutMs: number): BoundedMatch {
    // The isolated context is made before the clock starts: creating it (a new V8 context, ~1 ms idle but
    // over 100 ms on a loaded machine) is not the pattern's matching time.
    if (this.guard === 'isolated') this.isolatedContext();
    const started = this.clock();
    let found: readonly [number, number] | null;
    try {
      found = this.guard === 'direct' ? this.execDirect(input) : this.execIsolated(input, timeoutMs);
    } catch (e) {
      const elapsedMs = this.clock() - started;
      if (isVmTimeout(e)) return { status: 'timeout', elapsedMs, interrupted: true };
      return { status: 'failed', message: e instanceof Error ? e.message : String(e), elapsedMs, interrupted: false };
    }
    const elapsedMs = this.clock() - started;
    if (elapsedMs > timeoutMs) return { status: 'timeout', elapsedMs, interrupted: false };
    if (found === null) return { status: 'not_matched', elapsedMs, interrupted: false };
    return { status: 'matched', index: found[0], length: found[1], elapsedMs, interrupted: false };
  }

  private execDirect(input: string): readonly [number, number] | null {
    const m = this.direct.exec(input);
    return m === null ? null : [m.index, m[0].length];
  }

  private execIsolated(input: string, timeoutMs: number): readonly [number, number] | null {
    const context = this.isolatedContext();
    context['__input'] = input;
    try {
      const result: unknown = ISOLATED_EXEC.runInContext(context, {
        timeout: Math.max(1, Math.ceil(timeoutMs)),
        breakOnSigint: false,
      });
      if (!Array.isArray(result)) return null;
      return [Number(result[0]), Number(result[1])];
    } finally {
      context['__input'] = '';
    }
  }

  private isolatedContext(): vm.Context {
    if (this.context === undefined) {
      const context = vm.createContext({ __source: this.source, __flags: this.flags, __input: '' });
      vm.runInContext('globalThis.__re = new RegExp(__source, __flags);', context);
      // The first runs of a pattern compile it (to bytecode, then to machine code) and the first run of
      // the script compiles that: done here, on an empty input, so no case's match time pays for them.
      for (let warm = 0; warm < 2; warm++) ISOLATED_EXEC.runInContext(context, { timeout: 1000, breakOnSigint: false });
      this.context = context;
    }
    return this.context;
  }
}

function isVmTimeout(e: unknown): boolean {
  return (
    typeof e === 'object' &&
    e !== null &&
    'code' in e &&
    (e as { code: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
  );
}

/**
 * Compiles and checks a pattern for running: refused (with the reason) when it does not compile or
 * can backtrack catastrophically; otherwise a `BoundedRegex` with the right guard.
 */
export function prepareBoundedRegex(
  source: string,
  flags: string,
  form: PatternForm = {},
):
  | { readonly ok: true; readonly regex: BoundedRegex; readonly safety: PatternSafety }
  | { readonly ok: false; readonly message: string; readonly safety: PatternSafety } {
  const safety = checkPatternSafety(source, flags, form);
  const guard = guardFor(safety);
  if (guard === undefined)
    return { ok: false, message: 'message' in safety ? safety.message : 'the pattern cannot be run', safety };
  const normalized = normalizeFlags(flags);
  const run = form.fullMatch === true ? fullMatchSource(source, normalized).source : source;
  return { ok: true, regex: new BoundedRegex(new RegExp(run, normalized), guard), safety };
}
