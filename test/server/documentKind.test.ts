/** Which documents the language server takes for run configs: a plain YAML file of EvalBench's family is one. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentKind } from '../../server/analysis/documentKind';

describe('documentKind', () => {
  it('takes a plain YAML document for a run config by the family keys (configFamily) or scorers', () => {
    assert.equal(documentKind('file:///w/run.yaml', 'yaml', 'dataset_config: d.json\n', false), 'config');
    assert.equal(documentKind('file:///w/run.yaml', 'yaml', 'database_configs:\n  - db.yaml\n', false), 'config');
    // An orchestrator-only config (EvalBench's mcp_readability) is EvalBench's to the engine, so to the server too.
    assert.equal(documentKind('file:///w/run.yaml', 'yaml', 'orchestrator: mcp_readability\n', false), 'config');
    assert.equal(documentKind('file:///w/run.yaml', 'yaml', 'scorers:\n  exact_match: {}\n', false), 'config');
  });

  it('leaves other YAML alone, and takes *.eval.yaml and datasets by name and use', () => {
    assert.equal(
      documentKind('file:///w/k8s.yaml', 'yaml', 'kind: Deployment\nspec:\n  orchestrator: x\n', false),
      'other',
    );
    assert.equal(documentKind('file:///w/a.eval.yaml', 'evallens-yaml', '', false), 'config');
    assert.equal(documentKind('file:///w/cases.yaml', 'yaml', '- id: a\n', true), 'dataset');
  });
});
