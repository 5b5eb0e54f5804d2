// Reads an EvalLens JSON report line by line: its reporter writes one case or result per line, so a
// report of hundreds of MB is checked without loading it whole.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Calls `onCase` / `onResult` with each parsed case and result; resolves with the head fields the
 * benchmarks read (`durationMs`, `summary`).
 */
export async function readReport(file, { onCase = () => {}, onResult = () => {} } = {}) {
  let section = 'head';
  let durationMs;
  let summary;
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const raw of rl) {
    const line = raw.endsWith(',') ? raw.slice(0, -1) : raw;
    if (line === '"cases":[') {
      section = 'cases';
      continue;
    }
    if (line === '"results":[') {
      section = 'results';
      continue;
    }
    if (line === '],' || line === ']' || line === '{' || line === '}' || line === '"scorers":[') continue;
    if (section === 'head') {
      if (line.startsWith('"durationMs":')) durationMs = Number(line.slice('"durationMs":'.length));
      if (line.startsWith('"summary":')) summary = JSON.parse(line.slice('"summary":'.length));
    } else if (line.startsWith('{')) {
      if (section === 'cases') onCase(JSON.parse(line));
      else onResult(JSON.parse(line));
    }
  }
  return { durationMs, summary };
}
