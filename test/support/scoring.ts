import assert from 'node:assert/strict';
import type { EvalCase, Json } from '../../core/case';
import type { ScorerVerdict } from '../../core/result';
import { OptionsValidators } from '../../core/scorers/optionsValidator';
import type { OptionIssue, ScorerDefinition } from '../../core/scorers/scorer';
import { applyFieldPaths } from '../../core/scorers/fieldPaths';
import { createEngineContext } from '../../core/engineContext';

const validators = new OptionsValidators();

/**
 * Builds a scorer the way a run does (schema validation with defaults, then `create`) and
 * scores one case the way the runner does (field paths, then `score`).
 */
export async function score(
  definition: ScorerDefinition,
  options: { [key: string]: Json },
  testCase: Omit<EvalCase, 'id'> & { id?: string },
): Promise<ScorerVerdict> {
  const copy = structuredClone(options);
  const errors = validators.validate(definition, copy);
  assert.deepEqual(errors, [], `options should be valid: ${JSON.stringify(errors)}`);
  const made = definition.create(copy, {
    engine: createEngineContext(),
    configDir: process.cwd(),
    timeoutMs: typeof copy['timeout_ms'] === 'number' ? copy['timeout_ms'] : 30_000,
    env: {},
  });
  if (!made.ok) assert.fail(`scorer refused its options: ${JSON.stringify(made.issues)}`);
  const evalCase: EvalCase = { id: 'case-1', ...testCase };
  const selected = applyFieldPaths(evalCase, copy);
  if (!selected.ok) return selected.verdict;
  return made.scorer.score(selected.input, new AbortController().signal);
}

/**
 * The issues a scorer raises when the config loads, from its `check` (schema errors are a test
 * failure here); its `create`, called when a run starts, must refuse with the same issues.
 */
export function refusal(definition: ScorerDefinition, options: { [key: string]: Json }): readonly OptionIssue[] {
  const copy = structuredClone(options);
  const errors = validators.validate(definition, copy);
  assert.deepEqual(errors, [], `options should pass the schema: ${JSON.stringify(errors)}`);
  const context = {
    engine: createEngineContext(),
    configDir: process.cwd(),
    timeoutMs: typeof copy['timeout_ms'] === 'number' ? copy['timeout_ms'] : 30_000,
    env: {},
  };
  const checked = definition.check?.(copy, context) ?? { ok: true };
  assert.equal(checked.ok, false, 'the scorer should refuse these options when the config is checked');
  const made = definition.create(copy, context);
  assert.deepEqual(
    made.ok ? [] : made.issues,
    checked.ok ? [] : checked.issues,
    'create refuses with the issues check found',
  );
  return checked.ok ? [] : checked.issues;
}

/** ajv's errors for options the schema itself must reject. */
export function schemaErrors(definition: ScorerDefinition, options: { [key: string]: Json }) {
  return validators.validate(definition, structuredClone(options));
}
