import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalCase, Json } from '../../../core/case';

/** A file under test/fixtures/traces/. */
export const traceFixture = (name: string): string => join(__dirname, '..', '..', 'fixtures', 'traces', name);

/** The JSON of a fixture under test/fixtures/traces/. */
export function traceJson(name: string): Json {
  return JSON.parse(readFileSync(traceFixture(name), 'utf8')) as Json;
}

/** A fresh case with the trace (a new object each time, so the trace cache never carries over). */
export function withTrace(trace: Json | undefined): EvalCase {
  return trace === undefined ? { id: 'c' } : { id: 'c', trace };
}
