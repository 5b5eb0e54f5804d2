/**
 * Each config's cases as the last comparisons with its baseline left them (▼ regressed, ▲ fixed, …),
 * for the CodeLens. A run of some cases only updates those: a case the run did not include (its
 * transition `removed`) keeps what an earlier run said. Pure; the lens checks each transition against
 * the case's last result, so a result that was forgotten (its file changed) takes its lens with it.
 */
import type { RunComparison, Transition } from './runComparison';

export class LastComparisons {
  private readonly byConfig = new Map<string, Map<string, Transition>>();
  private readonly listeners = new Set<(configFile: string) => void>();

  onDidChange(listener: (configFile: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** A run of `configFile` ended; `comparison` is undefined when it was not compared with a baseline. */
  record(configFile: string, comparison: RunComparison | undefined): void {
    if (comparison === undefined) {
      // A run without a baseline (the file was removed): what older comparisons said no longer holds.
      if (!this.byConfig.delete(configFile)) return;
    } else {
      let cases = this.byConfig.get(configFile);
      if (cases === undefined) this.byConfig.set(configFile, (cases = new Map()));
      for (const [id, transition] of comparison.transitions) {
        if (transition === 'removed') continue;
        cases.set(id, transition);
      }
    }
    for (const listener of this.listeners) listener(configFile);
  }

  get(configFile: string, caseId: string): Transition | undefined {
    return this.byConfig.get(configFile)?.get(caseId);
  }
}
