/** The status bar's words while a config runs: cases done of the total, failures so far. Pure; statusBar.ts shows them. */
export interface RunProgress {
  readonly config: string;
  readonly done: number;
  readonly total: number | undefined;
  readonly failed: number;
  readonly errored: number;
}

export function runProgressText(progress: RunProgress): { readonly text: string; readonly tooltip: string } {
  const total = progress.total === undefined ? undefined : Math.max(progress.total, progress.done);
  const count = total === undefined ? `${progress.done}` : `${progress.done}/${total}`;
  const failures = progress.failed + progress.errored;
  const bad = [
    progress.failed > 0 ? `${progress.failed} failed` : undefined,
    progress.errored > 0 ? `${progress.errored} errored` : undefined,
  ].filter((p) => p !== undefined);
  return {
    text: `$(sync~spin) EvalLens ${count}${failures > 0 ? ` $(error) ${failures}` : ''}`,
    tooltip: `Running ${progress.config}: ${progress.done}${total === undefined ? '' : ` of ${total}`} case${(total ?? progress.done) === 1 ? '' : 's'} done${bad.length === 0 ? '' : `, ${bad.join(', ')}`}`,
  };
}
