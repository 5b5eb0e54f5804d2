import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

/**
 * `evallens plan`'s estimate on the judge example (examples/judge): the expected prompt tokens are
 * computed here from the prompt files and the cases' text, by hand (a quarter of the characters,
 * rounded up per prompt), not by the engine's code.
 */
const EXAMPLE = resolve('examples/judge');
const cases = readFileSync(join(EXAMPLE, 'conversations.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map(
    (line) =>
      JSON.parse(line) as {
        input: string;
        output: string;
        metadata: { binary_rubric: string[]; conversation_plan?: string };
      },
  );
const template = (name: string) => readFileSync(resolve('prompts', `${name}.md`), 'utf8');
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{([a-z_]+)\}\}/g, (_m, key: string) => values[key] ?? '');
const tokens = (prompt: string) => Math.ceil([...prompt].length / 4);

let work = '';
before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-plan-estimate-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

interface PlanJson {
  estimate: {
    scorers: {
      name: string;
      model?: string;
      judgeCalls: number;
      renderedCalls: number;
      inputTokens: number;
      outputTokens: number;
      cost?: number;
    }[];
    inputTokens: number;
    outputTokens: number;
    cost?: number;
    unpriced: string[];
  };
}

describe('evallens plan: tokens and cost of the judge calls', () => {
  it('counts the rendered prompts of the actual cases, max_tokens per answer, and the cost at the model config prices', async () => {
    const run = await runCli(['plan', 'support-judged.eval.yaml', '--json'], { cwd: EXAMPLE, env: {} });
    assert.equal(run.code, 0, run.stderr);
    const { estimate } = JSON.parse(run.stdout) as PlanJson;
    const conversation = (c: (typeof cases)[number]) => `user: ${c.input}\nassistant: ${c.output}`;
    const goalTokens = cases
      .map((c) =>
        tokens(
          fill(template('goal_completion'), {
            goal: c.metadata.conversation_plan ?? c.input,
            conversation: conversation(c),
          }),
        ),
      )
      .reduce((a, b) => a + b, 0);
    const rubricTokens = cases
      .flatMap((c) =>
        c.metadata.binary_rubric.map((criterion) =>
          tokens(fill(template('binary_rubric_scorer'), { criterion, conversation: conversation(c) })),
        ),
      )
      .reduce((a, b) => a + b, 0);
    // judge.yaml: max_tokens 400, 0.15 per million input tokens, 0.6 per million output tokens.
    const cost = (input: number, output: number) => (input * 0.15 + output * 0.6) / 1e6;
    const [goal, rubric] = estimate.scorers;
    assert.deepEqual(
      [goal?.name, goal?.model, goal?.judgeCalls, goal?.renderedCalls, goal?.inputTokens, goal?.outputTokens],
      ['goal_completion', 'gpt-4o-mini', 3, 3, goalTokens, 3 * 400],
    );
    assert.deepEqual(
      [rubric?.name, rubric?.judgeCalls, rubric?.renderedCalls, rubric?.inputTokens, rubric?.outputTokens],
      ['binary_rubric_scorer', 6, 6, rubricTokens, 6 * 400],
    );
    assert.ok(Math.abs((goal?.cost ?? NaN) - cost(goalTokens, 1200)) < 1e-9);
    assert.ok(Math.abs((rubric?.cost ?? NaN) - cost(rubricTokens, 2400)) < 1e-9);
    assert.equal(estimate.inputTokens, goalTokens + rubricTokens);
    assert.equal(estimate.outputTokens, 3600);
    assert.ok(Math.abs((estimate.cost ?? NaN) - cost(goalTokens + rubricTokens, 3600)) < 1e-9);
    assert.deepEqual(estimate.unpriced, []);
    // The figures, for people, under the call counts.
    const text = await runCli(['plan', 'support-judged.eval.yaml'], { cwd: EXAMPLE, env: {} });
    assert.match(
      text.stdout,
      new RegExp(
        `^  goal_completion \\(gpt-4o-mini\\): ~${goalTokens} prompt tokens, ≤ 1,200 answer tokens, cost up to ~0\\.\\d+$`,
        'm',
      ),
    );
    assert.match(text.stdout, /^ {2}total: ~[\d,]+ prompt tokens, ≤ 3,600 answer tokens, cost up to ~0\.\d+$/m);
  });

  it('gives no cost figure for a model config without prices, and says so', async () => {
    copyFileSync(join(EXAMPLE, 'conversations.jsonl'), join(work, 'conversations.jsonl'));
    copyFileSync(join(EXAMPLE, 'support-judged.eval.yaml'), join(work, 'support-judged.eval.yaml'));
    writeFileSync(join(work, 'judge.yaml'), 'provider: openai\nmodel: gpt-4o-mini\napi_key_env: OPENAI_API_KEY\n');
    const json = await runCli(['plan', 'support-judged.eval.yaml', '--json'], { cwd: work, env: {} });
    assert.equal(json.code, 0, json.stderr);
    const { estimate } = JSON.parse(json.stdout) as PlanJson;
    assert.equal(estimate.cost, undefined);
    assert.deepEqual(estimate.unpriced, ['goal_completion', 'binary_rubric_scorer']);
    assert.ok(
      estimate.scorers.every(
        (s) => s.cost === undefined && s.inputTokens > 0 && s.outputTokens === s.judgeCalls * 1024,
      ),
    );
    const text = await runCli(['plan', 'support-judged.eval.yaml'], { cwd: work, env: {} });
    assert.match(
      text.stdout,
      /^ {2}goal_completion \(gpt-4o-mini\): ~[\d,]+ prompt tokens, ≤ 3,072 answer tokens, no cost figure: judge\.yaml sets no price_per_million_input_tokens and price_per_million_output_tokens$/m,
    );
    assert.match(text.stdout, /no total cost: goal_completion, binary_rubric_scorer have no prices$/m);
  });
});
