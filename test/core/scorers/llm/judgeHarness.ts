import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunConfig } from '../../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../../core/config/runConfig';
import type { ScorerResult } from '../../../../core/result';
import { caseRecords } from '../../../../core/runner/records';
import { runEval, type RunOutcome } from '../../../../core/runner/run';
import type { RunEvent } from '../../../../core/runner/events';
import {
  startFakeLlmServer,
  type FakeLlmServer,
  type RecordedRequest,
  type ScriptedAnswer,
} from '../../../support/fakeOpenAiServer';

export const KEY_ENV = 'EVALLENS_TEST_JUDGE_KEY';
export const SECRET_KEY = 'sk-test-7f3a9c1e5b2d';
export const ENV = { [KEY_ENV]: SECRET_KEY };

/** A temp folder with `judge.yaml` pointing at the protocol test double, which the caller closes. */
export interface JudgeFixture {
  readonly dir: string;
  readonly server: FakeLlmServer;
  close(): Promise<void>;
}

export async function judgeFixture(
  options: {
    provider?: 'openai' | 'anthropic';
    extra?: string;
    fallback?: (request: RecordedRequest) => ScriptedAnswer;
  } = {},
): Promise<JudgeFixture> {
  const server = await startFakeLlmServer(options.fallback);
  const dir = mkdtempSync(join(tmpdir(), 'evallens-judge-'));
  const provider = options.provider ?? 'openai';
  const baseUrl = provider === 'openai' ? server.openAiBaseUrl : server.anthropicBaseUrl;
  // No waiting between attempts unless a test says otherwise: tests count attempts, not time.
  writeFileSync(
    join(dir, 'judge.yaml'),
    `provider: ${provider}\nbase_url: ${baseUrl}\nmodel: test-judge\napi_key_env: ${KEY_ENV}\nretry_initial_delay_ms: 0\n${options.extra ?? ''}`,
  );
  return {
    dir,
    server,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Loads `yaml` as `<dir>/run.eval.yaml` (its errors fail the test). */
export function loadConfig(dir: string, yaml: string, env: Readonly<Record<string, string>> = ENV): RunConfig {
  const file = join(dir, 'run.eval.yaml');
  writeFileSync(file, yaml);
  const parsed = parseRunConfig(yaml, file, env, { fileExists: existsSync });
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  assert.deepEqual(
    errors.map((p) => p.message),
    [],
    'the config should load',
  );
  assert.ok(parsed.config !== undefined);
  return parsed.config;
}

export async function runConfig(
  config: RunConfig,
  options: { trusted?: boolean; trials?: number } = {},
): Promise<{ results: ScorerResult[]; outcome: RunOutcome; events: RunEvent[] }> {
  const events: RunEvent[] = [];
  const outcome = await runEval(config, caseRecords(config), {
    runId: 'test',
    concurrency: 1,
    onEvent: (e) => events.push(e),
    ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
    ...(options.trials === undefined ? {} : { trials: options.trials }),
  });
  const results = events.flatMap((e) => (e.type === 'result' ? [e.result] : []));
  return { results, outcome, events };
}

/** An inline-cases config: `scorers` is the YAML of the scorers block's entries (indented two spaces). */
export function configYaml(scorers: string, cases: readonly unknown[], extra = ''): string {
  return `${extra}scorers:\n${scorers}\ncases: ${JSON.stringify(cases)}\n`;
}
