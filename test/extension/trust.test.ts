/**
 * Restricted Mode in the extension (issue 13, items 1 and 6): a config with a server database is not
 * free (a save never runs it in Restricted Mode, and only with costlyScorersOnSave otherwise), listing
 * and planning in Restricted Mode read no environment variable, and every setting that writes files,
 * runs on save, runs processes or spends money is a restricted configuration.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planArgs } from '../../extension/runner/cliArgs';
import { fetchPlan, parsePlan, planIsFree } from '../../extension/runner/plan';
import { discoverCases, type DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { freeByDiscovery, runDecision, type RunContext } from '../../extension/testing/runDecision';
import { CLI, ensureBuilt, ROOT } from '../support/cli';
import { messageOf, withServer } from '../support/lspClient';
import { pathToFileURL } from 'node:url';

let dir = '';
before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-ext-trust-'));
  writeFileSync(
    join(dir, 'pg.yaml'),
    'db_type: postgres\ndialect: postgres\ndatabase_name: shop\nhost: 127.0.0.1\nport: 9\nuser_name: u\npassword_env: SOME_PASSWORD\n',
  );
  writeFileSync(
    join(dir, 'prompts.json'),
    JSON.stringify([
      {
        id: 1,
        nl_prompt: 'q',
        query_type: 'DQL',
        database: 'shop',
        dialects: ['postgres'],
        golden_sql: { postgres: ['SELECT 1'] },
        generated_sql: 'SELECT 1',
      },
    ]),
  );
  writeFileSync(
    join(dir, 'server.yaml'),
    'dataset_config: prompts.json\ndatabase_configs:\n  - pg.yaml\nscorers:\n  exact_match: null\n',
  );
  writeFileSync(
    join(dir, 'vars.eval.yaml'),
    'cases: [{id: a, output: x, expected: x}]\nscorers:\n  exact_match: {mode: "${EXT_TRUST_MODE}"}\n',
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function discover(file: string, untrusted: boolean): Promise<DiscoveredConfig> {
  const [found] = await discoverCases(CLI, [join(dir, file)], dir, 60_000, untrusted);
  assert.ok(found !== undefined);
  return found;
}

describe('a config with a server database is not free', () => {
  it('discovery and the plan say it reaches the network, and a save does not run it', async () => {
    const discovered = await discover('server.yaml', true);
    assert.equal(discovered.problem, undefined);
    assert.deepEqual(discovered.reaches, ['network']);
    assert.equal(freeByDiscovery(discovered), false);
    const answer = await fetchPlan(CLI, { configFile: join(dir, 'server.yaml'), caseIds: [], untrusted: true }, dir);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.equal(planIsFree(answer.plan), false);
    const context = (fromSave: boolean, costlyScorersOnSave: boolean, trusted: boolean): RunContext => ({
      configName: 'server.yaml',
      fromSave,
      costlyScorersOnSave,
      trusted,
      confirmJudgeCallsAbove: 50,
    });
    const refused = (why: string) => ({ kind: 'refuse', message: `server.yaml was not run on save: ${why}.` });
    // Restricted Mode: never on save, even with costlyScorersOnSave (a user setting still counts there).
    assert.deepEqual(
      runDecision(context(true, true, false), discovered, answer.plan),
      refused('it connects to a server database (Restricted Mode: trust the workspace to run it on save)'),
    );
    assert.deepEqual(
      runDecision(context(true, true, false), discovered, undefined),
      refused(
        'it reaches the network: LLM judges or a server database (Restricted Mode: trust the workspace to run it on save)',
      ),
    );
    // Trusted: like costly scorers, only when opted in.
    assert.deepEqual(
      runDecision(context(true, false, true), discovered, answer.plan),
      refused('it connects to a server database (set evallens.run.costlyScorersOnSave to run it on save)'),
    );
    assert.deepEqual(runDecision(context(true, true, true), discovered, answer.plan), { kind: 'run' });
    // A run the person starts is not a save.
    assert.deepEqual(runDecision(context(false, false, false), discovered, answer.plan), { kind: 'run' });
  });

  it('a plan that says reaches: network is not free; an older plan without the field reads as before', () => {
    const base = { cases: 1, trials: 1, judgeCalls: 0, target: false, scorers: [] };
    const withDatabase = parsePlan(JSON.stringify({ ...base, reaches: ['network'] }));
    assert.ok(withDatabase.ok);
    assert.equal(planIsFree(withDatabase.plan), false);
    const older = parsePlan(JSON.stringify(base));
    assert.ok(older.ok);
    assert.equal(planIsFree(older.plan), true);
  });

  it('a free config runs on save in Restricted Mode', async () => {
    writeFileSync(
      join(dir, 'free.eval.yaml'),
      'cases: [{id: a, output: x, expected: x}]\nscorers:\n  exact_match: {}\n',
    );
    const discovered = await discover('free.eval.yaml', true);
    assert.equal(freeByDiscovery(discovered), true);
    assert.deepEqual(
      runDecision(
        {
          configName: 'free.eval.yaml',
          fromSave: true,
          costlyScorersOnSave: false,
          trusted: false,
          confirmJudgeCallsAbove: 50,
        },
        discovered,
        undefined,
      ),
      { kind: 'run' },
    );
  });
});

describe('listing and planning in Restricted Mode', () => {
  it('ask the CLI with --untrusted, which reads no ${VAR} and says so at its position', async () => {
    assert.deepEqual(planArgs({ configFile: 'a.yaml', caseIds: [], untrusted: true }), [
      'plan',
      'a.yaml',
      '--json',
      '--untrusted',
    ]);
    assert.deepEqual(planArgs({ configFile: 'a.yaml', caseIds: [] }), ['plan', 'a.yaml', '--json']);
    const untrusted = await discover('vars.eval.yaml', true);
    assert.match(untrusted.problem ?? '', /^3:23: `\$\{EXT_TRUST_MODE\}` was not read: the workspace is not trusted/);
    const trusted = await discover('vars.eval.yaml', false);
    assert.match(trusted.problem ?? '', /^3:23: the environment variable EXT_TRUST_MODE is not set/);
  });
});

describe('the language server in Restricted Mode (started with EVALLENS_UNTRUSTED=1)', () => {
  it('reads no ${VAR}: its diagnostic says it was not read because the workspace is not trusted', async () => {
    process.env['EXT_TRUST_MODE'] = 'text';
    process.env['EVALLENS_UNTRUSTED'] = '1';
    try {
      await withServer(async (server) => {
        const { diagnostics } = await server.openAndWait(
          pathToFileURL(join(dir, 'open.eval.yaml')).href,
          readFileSync(join(dir, 'vars.eval.yaml'), 'utf8'),
        );
        assert.ok(
          diagnostics.some((d) =>
            /`\$\{EXT_TRUST_MODE\}` was not read: the workspace is not trusted/.test(messageOf(d)),
          ),
          JSON.stringify(diagnostics),
        );
      });
    } finally {
      delete process.env['EXT_TRUST_MODE'];
      delete process.env['EVALLENS_UNTRUSTED'];
    }
  });
});

describe('restricted configurations', () => {
  /** Settings a workspace may set in Restricted Mode: each neither writes files, runs on save, runs processes nor spends money. */
  const HARMLESS: Readonly<Record<string, string>> = {
    'evallens.run.timeLimitSeconds': 'only stops a run sooner',
    'evallens.run.offerShowFailures': 'only shows or hides a notification after a run',
  };

  it('every evallens setting is restricted unless it is listed here as harmless', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations?: string[] } };
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const settings = Object.keys(manifest.contributes.configuration.properties);
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    for (const name of restricted) assert.ok(settings.includes(name), `${name} is not a setting`);
    assert.deepEqual(
      settings.filter((s) => !restricted.includes(s) && HARMLESS[s] === undefined),
      [],
    );
    for (const name of [
      'evallens.run.runsDirectory',
      'evallens.run.onSave',
      'evallens.run.costlyScorersOnSave',
      'evallens.run.concurrency',
      'evallens.confirmJudgeCallsAbove',
    ]) {
      assert.ok(restricted.includes(name), name);
    }
  });
});
