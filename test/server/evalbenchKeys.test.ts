/**
 * The language server says about EvalBench's keys what `evallens validate` says (one engine, one
 * key table): information on keys EvalLens does not run, a warning on a key that changes EvalBench's
 * scores, one notice per EvalBench scorer it does not run in either form, and an `orchestrator:`
 * alone makes a plain YAML document an EvalBench config.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver/node';
import { ensureServerBuilt, textIn, withServer } from '../support/lspClient';

describe('diagnostics of EvalBench keys', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-evalbench-keys-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives keys EvalLens does not run an information, a scoring difference a warning, and no error', async () => {
    const text = [
      'dataset_config: cuj.evalset.json',
      'eval_case_timeout: 30m',
      'set_up_script: scripts/setup.sh',
      'num_evals_to_run: 10',
      'scorers:',
      '  - type: dataform_cloud_run',
      '    gcp_project_id: !ENV ${EVALLENS_TEST_UNSET_PROJECT}',
      '  - type: turn_count',
      '',
    ].join('\n');
    await withServer(async (server) => {
      const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'run_config.yaml')).href, text, 'yaml');
      const seen = diagnostics.map((d) => `${textIn(text, d.range)} ${String(d.severity)} ${String(d.code)}`);
      assert.deepEqual(
        seen.filter((s) => !s.endsWith('missing-file')),
        [
          `dataform_cloud_run ${DiagnosticSeverity.Information} evalbench-scorer-not-run`,
          `eval_case_timeout ${DiagnosticSeverity.Information} evalbench-key-not-run`,
          `set_up_script ${DiagnosticSeverity.Information} evalbench-key-not-run`,
          `num_evals_to_run ${DiagnosticSeverity.Warning} evalbench-key-differs`,
        ],
      );
    });
  });

  it('takes a plain YAML document with an orchestrator and scorers (mcp_readability) as an EvalBench config', async () => {
    const text =
      'orchestrator: mcp_readability\nscorers:\n  mcp_style_readability:\n    style_guide: style_guide.md\nendpoints_config: endpoints.yaml\n';
    await withServer(async (server) => {
      const { diagnostics } = await server.openAndWait(
        pathToFileURL(join(dir, 'mcp_run_config.yaml')).href,
        text,
        'yaml',
      );
      assert.deepEqual(
        diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error),
        [],
        JSON.stringify(diagnostics),
      );
      assert.ok(
        diagnostics.some(
          (d) => d.code === 'evalbench-scorer-not-run' && textIn(text, d.range) === 'mcp_style_readability',
        ),
      );
      assert.ok(diagnostics.some((d) => d.code === 'nothing-to-score' && d.severity === DiagnosticSeverity.Warning));
    });
  });
});
