/**
 * Each kind of diagnostic the server publishes for a run config, with its exact range: the text the
 * range covers is the key (for an unknown key) or the value (for a wrong value) the mistake is about.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type Diagnostic, DiagnosticSeverity } from 'vscode-languageserver/node';
import { ensureServerBuilt, messageOf, textIn, withServer } from '../support/lspClient';

interface Expected {
  readonly name: string;
  readonly text: string;
  readonly code: string;
  /** The text the diagnostic's range covers. */
  readonly covers: string;
  readonly line: number;
  readonly message: RegExp;
  readonly severity?: DiagnosticSeverity;
}

describe('diagnostics of a run config', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-diagnostics-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
  const head = 'dataset: cases.jsonl\n';

  const KINDS: Expected[] = [
    {
      name: 'YAML syntax',
      text: `${head}scorers:\n  exact_match: {\n`,
      code: 'yaml-syntax',
      covers: '',
      line: 3,
      message: /^YAML: /,
    },
    {
      name: 'unknown top-level key',
      text: `${head}scorerz: {}\nscorers:\n  exact_match: {}\n`,
      code: 'unknown-key',
      covers: 'scorerz',
      line: 1,
      message: /did you mean "scorers"\?/,
    },
    {
      name: 'unknown scorer',
      text: `${head}scorers:\n  exact_mach: {}\n`,
      code: 'unknown-scorer',
      covers: 'exact_mach',
      line: 2,
      message: /unknown scorer "exact_mach"; did you mean "exact_match"\?/,
    },
    {
      name: 'unknown scorer, list form',
      text: `${head}scorers:\n  - type: regx\n    pattern: a\n`,
      code: 'unknown-scorer',
      covers: 'regx',
      line: 2,
      message: /did you mean "regex"/,
    },
    {
      name: 'unknown option',
      text: `${head}scorers:\n  exact_match:\n    trimm: true\n`,
      code: 'unknown-key',
      covers: 'trimm',
      line: 3,
      message: /did you mean "trim"/,
    },
    {
      name: 'option type',
      text: `${head}scorers:\n  regex:\n    pattern: 5\n`,
      code: 'schema',
      covers: '5',
      line: 3,
      message: /must be a string, not the number 5/,
    },
    {
      name: 'enum',
      text: `${head}scorers:\n  regex:\n    pattern: a\n    mode: fullmatch\n`,
      code: 'schema',
      covers: 'fullmatch',
      line: 4,
      message: /must be one of .*did you mean "full_match"/,
    },
    {
      name: 'range',
      text: `${head}scorers:\n  regex:\n    pattern: a\n    match_timeout_ms: 99999\n`,
      code: 'schema',
      covers: '99999',
      line: 4,
      message: /at most 2000/,
    },
    {
      name: 'missing required option',
      text: `${head}scorers:\n  subprocess: {}\n`,
      code: 'missing-required',
      covers: 'subprocess',
      line: 2,
      message: /missing the required key "cmd"/,
    },
    {
      name: 'conflicting options (schema)',
      text: `${head}scorers:\n  regex:\n    pattern: a\n    patterns: [b]\n`,
      code: 'conflicting-options',
      covers: 'regex',
      line: 2,
      message: /takes "pattern" or "patterns", not both/,
    },
    {
      name: 'conflicting options (enforce_order with allow_extra_skills)',
      text: `${head}scorers:\n  skills_trajectory:\n    enforce_order: true\n    allow_extra_skills: true\n`,
      code: 'conflicting-options',
      covers: 'allow_extra_skills',
      line: 4,
      message: /takes `enforce_order: true` or `allow_extra_skills: true`, not both/,
    },
    {
      name: 'consistency scorer without num_trials',
      text: `${head}scorers:\n  exact_match_consistency: {}\n`,
      code: 'needs-trials',
      covers: 'exact_match_consistency',
      line: 2,
      message: /num_trials.*at least 2/,
    },
    {
      name: 'missing dataset',
      text: 'dataset: nowhere.jsonl\nscorers:\n  exact_match: {}\n',
      code: 'missing-file',
      covers: 'nowhere.jsonl',
      line: 0,
      message: /does not exist/,
    },
    {
      name: 'missing file option',
      text: `${head}scorers:\n  json_schema:\n    schema_path: schemas/none.json\n`,
      code: 'missing-file',
      covers: 'schemas/none.json',
      line: 3,
      message: /schema_path\) does not exist/,
    },
    {
      name: 'missing database config',
      text: 'dataset_config: cases.jsonl\ndatabase_configs:\n  - db/none.yaml\nscorers:\n  set_match: {}\n',
      code: 'missing-file',
      covers: 'db/none.yaml',
      line: 2,
      message: /database config .* does not exist/,
    },
    {
      name: 'missing baseline (a warning: run --save-baseline writes it)',
      text: `${head}baseline: old.baseline.json\nscorers:\n  exact_match: {}\n`,
      code: 'missing-baseline',
      covers: 'old.baseline.json',
      line: 1,
      message: /the baseline .*old\.baseline\.json does not exist .*--save-baseline/,
      severity: DiagnosticSeverity.Warning,
    },
    {
      name: 'missing model config',
      text: 'dataset_config: cases.jsonl\nmodel_config: models/none.yaml\nscorers:\n  set_match: {}\n',
      code: 'missing-file',
      covers: 'models/none.yaml',
      line: 1,
      message: /model config/,
      severity: DiagnosticSeverity.Warning,
    },
    {
      name: 'regex that does not compile',
      text: `${head}scorers:\n  regex:\n    pattern: "a("\n`,
      code: 'invalid-option',
      covers: '"a("',
      line: 3,
      message: /does not compile/,
    },
    {
      name: 'regex that backtracks catastrophically',
      text: `${head}scorers:\n  regex:\n    pattern: "^(a+)+$"\n`,
      code: 'invalid-option',
      covers: '"^(a+)+$"',
      line: 3,
      message: /backtrack catastrophically.*the problem is/,
    },
    {
      name: 'json_schema that is not a schema',
      text: `${head}scorers:\n  json_schema:\n    schema: {type: strin}\n`,
      code: 'invalid-option',
      covers: 'strin',
      line: 3,
      message: /the schema does not compile/,
    },
    {
      name: 'unresolved variable',
      text: 'dataset: ${EVALLENS_TEST_UNSET}/cases.jsonl\nscorers:\n  exact_match: {}\n',
      code: 'unresolved-variable',
      covers: '${EVALLENS_TEST_UNSET}',
      line: 0,
      message: /EVALLENS_TEST_UNSET is not set/,
      severity: DiagnosticSeverity.Warning,
    },
    {
      name: 'duplicate inline case id',
      text: 'cases:\n  - {id: a, output: x}\n  - {id: a, output: y}\nscorers:\n  exact_match: {}\n',
      code: 'duplicate-case-id',
      covers: 'a',
      line: 2,
      message: /duplicate case id "a"/,
    },
    {
      name: 'inline case against the case schema',
      text: 'cases:\n  - {id: [1], output: x}\nscorers:\n  exact_match: {}\n',
      code: 'schema',
      covers: '[1]',
      line: 1,
      message: /must be a string or a number/,
    },
  ];

  it('reports each kind on its exact node', async () => {
    await withServer(async (server) => {
      for (const [i, kind] of KINDS.entries()) {
        const uri = uriOf(`kind-${i}.eval.yaml`);
        const { diagnostics } = await server.openAndWait(uri, kind.text);
        const found: Diagnostic | undefined = diagnostics.find(
          (d) => d.code === kind.code && kind.message.test(messageOf(d)),
        );
        assert.ok(
          found,
          `${kind.name}: expected a ${kind.code} diagnostic matching ${kind.message}, got ${JSON.stringify(diagnostics)}`,
        );
        assert.equal(found.range.start.line, kind.line, `${kind.name}: line`);
        if (kind.covers !== '') assert.equal(textIn(kind.text, found.range), kind.covers, `${kind.name}: range`);
        assert.equal(found.severity, kind.severity ?? DiagnosticSeverity.Error, `${kind.name}: severity`);
        assert.equal(found.source, 'evallens');
      }
    });
  });

  it('checks a plain YAML document whose content is an EvalBench run config, and ignores other YAML', async () => {
    await withServer(async (server) => {
      const config = uriOf('run_config.yaml');
      const { diagnostics } = await server.openAndWait(
        config,
        'dataset_config: cases.jsonl\nscorers:\n  set_mach: {}\n',
        'yaml',
      );
      assert.ok(
        diagnostics.some((d) => d.code === 'unknown-scorer'),
        JSON.stringify(diagnostics),
      );
      // Other YAML gets nothing at all: a config opened after it is answered first.
      const other = uriOf('docker-compose.yaml');
      server.open(other, 'services:\n  web: {image: x}\n', 'yaml');
      const marker = uriOf('after.eval.yaml');
      let otherPublished = false;
      void server.nextDiagnostics(other).then(
        () => (otherPublished = true),
        () => undefined,
      );
      await server.openAndWait(marker, `${head}scorers:\n  exact_match: {}\n`);
      assert.equal(otherPublished, false);
    });
  });

  it('re-checks a config when a file it names appears on disk (workspace/didChangeWatchedFiles), and registers the watcher dynamically', async () => {
    await withServer(
      async (server) => {
        const uri = uriOf('watch.eval.yaml');
        const first = await server.openAndWait(uri, 'dataset: later.jsonl\nscorers:\n  exact_match: {}\n');
        assert.ok(first.diagnostics.some((d) => d.code === 'missing-file'));
        writeFileSync(join(dir, 'later.jsonl'), '{"id":"a","output":"x"}\n');
        const again = server.nextDiagnostics(uri);
        await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
          changes: [{ uri: uriOf('later.jsonl'), type: 1 }],
        });
        assert.deepEqual((await again).diagnostics, []);
        const registered = server.registrations.flatMap((r) => r.registrations.map((x) => x.method));
        assert.ok(registered.includes('workspace/didChangeWatchedFiles'), JSON.stringify(server.registrations));
      },
      { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    );
  });
});
