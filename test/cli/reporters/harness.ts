import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createReporter, type ReporterName } from '../../../cli/reporters';
import type { ReportSource } from '../../../core/report/report';
import type { RunEvent } from '../../../core/runner/events';
import { SAMPLE_CWD, sampleEvents, sampleSource } from '../../support/sampleRun';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'reports');

/** A stand-in for standard output that keeps what was written. */
export class Capture extends Writable {
  private readonly chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    done();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

export interface RunOptions {
  readonly events?: readonly RunEvent[];
  readonly source?: ReportSource;
  readonly out?: string;
  readonly color?: boolean;
}

/** Feeds a run to a reporter and returns what it wrote to standard output. */
export async function runReporter(name: ReporterName, options: RunOptions = {}): Promise<string> {
  const stdout = new Capture();
  const reporter = createReporter(name, {
    stdout,
    cwd: SAMPLE_CWD,
    color: options.color ?? false,
    ...(options.out === undefined ? {} : { out: options.out }),
  });
  for (const event of options.events ?? sampleEvents()) reporter.onEvent(event);
  await reporter.finish(options.source ?? sampleSource());
  return stdout.text;
}

/** Compares with a golden file under test/fixtures/reports; `UPDATE_GOLDEN=1` rewrites it instead. */
export function assertGolden(file: string, actual: string): void {
  const path = join(FIXTURES, file);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, actual);
  assert.equal(
    actual,
    readFileSync(path, 'utf8'),
    `output differs from ${file} (UPDATE_GOLDEN=1 rewrites it; review the diff)`,
  );
}
