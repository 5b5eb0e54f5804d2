import type { CaseStatus } from '../runner/events';

/** The few fields of a case the comparison reads. */
export interface CompareCase {
  readonly id: string;
  readonly status: CaseStatus;
  /** Its input and expected value hashed (fingerprint.ts); absent in reports made before fingerprints. */
  readonly fingerprint?: string;
}

/** The few fields of a result the comparison reads (a report's results, never its summary fields). */
export interface CompareResult {
  readonly caseId: string;
  readonly scorer: string;
  readonly score?: number;
  readonly passed?: boolean;
}

/**
 * A CollectedRun as plain data, to move it between threads (the buffers are transferred, not copied):
 * the case ids in slot order and the per case × scorer arrays.
 */
export interface CollectedRunData {
  readonly scorers: readonly string[];
  readonly ids: readonly string[];
  /** Each case's fingerprint by slot, where its report gave one. */
  readonly fingerprints: ReadonlyMap<number, string>;
  readonly hasPassDecision: readonly boolean[];
  readonly status: Int8Array<ArrayBuffer>;
  readonly sums: Float64Array<ArrayBuffer>;
  readonly counts: Uint32Array<ArrayBuffer>;
  readonly decided: Uint32Array<ArrayBuffer>;
  readonly passes: Uint32Array<ArrayBuffer>;
}

/**
 * One run reduced to what a comparison needs, per case × scorer: the sum and count of its finite
 * scores and of its decided trials and passes. Held in typed arrays, one slot per case × scorer, so a
 * 100,000-case run of 5 scorers takes a few MB whatever its results held (outputs, reasons, details).
 */
export class CollectedRun {
  readonly scorers: readonly string[];
  private readonly scorerIndex: Map<string, number>;
  /** Case id → slot. */
  readonly caseSlot = new Map<string, number>();
  /** Case status by slot: 1 passed, 0 not passed (failed, errored, skipped), −1 not listed in the cases. */
  private status = new Int8Array(1024);
  private sums = new Float64Array(0);
  private counts = new Uint32Array(0);
  private decided = new Uint32Array(0);
  private passes = new Uint32Array(0);
  /** Fingerprints by slot (16 hex digits), for the cases whose report gave one. */
  private readonly fingerprints = new Map<number, string>();
  /** Whether some result of each scorer has a pass decision (then it is compared as pass/fail). */
  readonly hasPassDecision: boolean[];

  constructor(scorers: readonly string[]) {
    this.scorers = scorers;
    this.scorerIndex = new Map(scorers.map((name, i) => [name, i]));
    this.hasPassDecision = scorers.map(() => false);
    this.grow(1024);
  }

  /** The run as data (toData → fromData gives the same run); the arrays are this run's own. */
  toData(): CollectedRunData {
    const { scorers, status, sums, counts, decided, passes } = this;
    return {
      scorers,
      ids: [...this.caseSlot.keys()],
      fingerprints: this.fingerprints,
      hasPassDecision: [...this.hasPassDecision],
      status,
      sums,
      counts,
      decided,
      passes,
    };
  }

  static fromData(data: CollectedRunData): CollectedRun {
    const run = new CollectedRun(data.scorers);
    data.ids.forEach((id, slot) => run.caseSlot.set(id, slot));
    for (const [slot, fingerprint] of data.fingerprints) run.fingerprints.set(slot, fingerprint);
    data.hasPassDecision.forEach((has, i) => (run.hasPassDecision[i] = has));
    run.status = data.status;
    run.sums = data.sums;
    run.counts = data.counts;
    run.decided = data.decided;
    run.passes = data.passes;
    return run;
  }

  get caseCount(): number {
    return this.caseSlot.size;
  }

  addCase(c: CompareCase): void {
    const slot = this.slotOf(c.id);
    this.status[slot] = c.status === 'passed' ? 1 : 0;
    if (typeof c.fingerprint === 'string') this.fingerprints.set(slot, c.fingerprint);
  }

  /** The case's fingerprint, when its report gave one. */
  fingerprint(slot: number): string | undefined {
    return this.fingerprints.get(slot);
  }

  /** Adds a result; a result of a scorer the run's head does not list is ignored (and counted by the caller). */
  addResult(r: CompareResult): boolean {
    const scorer = this.scorerIndex.get(r.scorer);
    if (scorer === undefined) return false;
    const at = this.slotOf(r.caseId) * this.scorers.length + scorer;
    if (typeof r.score === 'number' && Number.isFinite(r.score)) {
      this.sums[at] = (this.sums[at] ?? 0) + r.score;
      this.counts[at] = (this.counts[at] ?? 0) + 1;
    }
    if (typeof r.passed === 'boolean') {
      this.hasPassDecision[scorer] = true;
      this.decided[at] = (this.decided[at] ?? 0) + 1;
      if (r.passed) this.passes[at] = (this.passes[at] ?? 0) + 1;
    }
    return true;
  }

  /** The case's status: true passed, false did not, undefined when the cases did not list it. */
  casePassed(slot: number): boolean | undefined {
    const s = this.status[slot] ?? -1;
    return s === -1 ? undefined : s === 1;
  }

  /** The case's scores for a scorer: their sum and how many (trials with a finite score). */
  scores(slot: number, scorer: number): { sum: number; count: number } {
    const at = slot * this.scorers.length + scorer;
    return { sum: this.sums[at] ?? 0, count: this.counts[at] ?? 0 };
  }

  /**
   * Whether the case passed this scorer: every decided trial passed (the `min_pass_rate` default of 1,
   * core/stats caseTrialsSummary); undefined when no trial was decided.
   */
  passedScorer(slot: number, scorer: number): boolean | undefined {
    const at = slot * this.scorers.length + scorer;
    const decided = this.decided[at] ?? 0;
    return decided === 0 ? undefined : (this.passes[at] ?? 0) === decided;
  }

  /**
   * The run restricted to the cases `keep` accepts (a run of some cases, `--case`/`--filter`, compared
   * with a baseline of all: the cases not run are not `removed`).
   */
  subset(keep: (id: string) => boolean): CollectedRun {
    const copy = new CollectedRun(this.scorers);
    const width = this.scorers.length;
    for (const [id, slot] of this.caseSlot) {
      if (!keep(id)) continue;
      const to = copy.slotOf(id);
      copy.status[to] = this.status[slot] ?? -1;
      const fingerprint = this.fingerprints.get(slot);
      if (fingerprint !== undefined) copy.fingerprints.set(to, fingerprint);
      for (let s = 0; s < width; s++) {
        const from = slot * width + s;
        const at = to * width + s;
        copy.sums[at] = this.sums[from] ?? 0;
        copy.counts[at] = this.counts[from] ?? 0;
        copy.decided[at] = this.decided[from] ?? 0;
        copy.passes[at] = this.passes[from] ?? 0;
      }
    }
    this.hasPassDecision.forEach((has, s) => {
      copy.hasPassDecision[s] = has;
    });
    return copy;
  }

  /** The last case looked up: a case's results come together, so most lookups are this one. */
  private lastId: string | undefined;
  private lastSlot = 0;

  private slotOf(id: string): number {
    if (id === this.lastId) return this.lastSlot;
    let slot = this.caseSlot.get(id);
    if (slot === undefined) {
      slot = this.caseSlot.size;
      this.caseSlot.set(id, slot);
      if (slot >= this.status.length) this.grow(this.status.length * 2);
      this.status[slot] = -1;
    }
    this.lastId = id;
    this.lastSlot = slot;
    return slot;
  }

  private grow(cases: number): void {
    const status = new Int8Array(cases).fill(-1);
    status.set(this.status.subarray(0, Math.min(this.status.length, cases)));
    this.status = status;
    const size = cases * this.scorers.length;
    const sums = new Float64Array(size);
    sums.set(this.sums);
    this.sums = sums;
    const counts = new Uint32Array(size);
    counts.set(this.counts);
    this.counts = counts;
    const decided = new Uint32Array(size);
    decided.set(this.decided);
    this.decided = decided;
    const passes = new Uint32Array(size);
    passes.set(this.passes);
    this.passes = passes;
  }
}
