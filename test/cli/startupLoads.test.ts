/**
 * Start-up (issue 18 item 2): `evallens validate` and `--version` load only what they use. The commands
 * that run, compare, merge or report are imported when they run, and what may start a process, open a
 * database or call a target loads on first use; so Node's modules for those (child processes, sockets,
 * timing) are never loaded by a `validate` of a config that needs none of them. Checked
 * on the built CLI with a preload that lists the Node modules the process loaded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

/**
 * Node modules only running, comparing, merging or reporting need (the build before this change loaded
 * them all). Not `net` or readline: Node loads them itself for a piped stdout and stderr, as here.
 */
const NOT_FOR_VALIDATE = ['child_process', 'dgram', 'perf_hooks'];

/**
 * What only checking a regular expression needs: the ReDoS checker's thread. Loaded with the first
 * pattern without a kept verdict, so never by a config without one, nor by `--version` or `--help`.
 */
const FOR_PATTERNS_ONLY = ['worker_threads'];

/**
 * What `validate` never needs: the verdict store hashes its keys itself (shared/regexVerdicts/sha256.ts),
 * since node:crypto is 17 of Node's internal modules, a fiftieth of `validate`'s start.
 */
const NOT_FOR_ANY_VALIDATE = ['crypto'];

/** What reading a config or its cases needs (file handles, a `vm` context for isolated patterns): not `--version` or `--help`. */
const FOR_CONFIGS_ONLY = ['fs/promises', 'vm'];

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-startup-loads-'));
  // Plain CommonJS, run before the CLI: at exit, the Node modules the process loaded, one a line.
  writeFileSync(
    join(work, 'listModules.js'),
    [
      "process.on('exit', () => {",
      "  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));",
      "  require('node:fs').writeFileSync(process.env.EVALLENS_TEST_MODULE_LIST, loaded.join('\\n'));",
      '});',
      '',
    ].join('\n'),
  );
});

after(() => rmSync(work, { recursive: true, force: true }));

async function loadedBy(args: readonly string[], name: string, cache = 'cache'): Promise<Set<string>> {
  const list = join(work, `${name}.txt`);
  const run = await runCli(args, {
    cwd: ROOT,
    env: {
      NODE_OPTIONS: `--require ${join(work, 'listModules.js')}`,
      EVALLENS_TEST_MODULE_LIST: list,
      EVALLENS_CACHE_HOME: join(work, cache),
    },
  });
  assert.equal(run.code, 0, run.stderr);
  return new Set(readFileSync(list, 'utf8').split('\n'));
}

describe('start-up loads only what the command uses', () => {
  it('validate of the quick start loads no child process, UDP socket or timing module', async () => {
    const loaded = await loadedBy(['validate', 'examples/quickstart/refunds.eval.yaml'], 'validate');
    assert.ok(loaded.has('fs'), 'the preload listed the modules');
    assert.deepEqual(
      NOT_FOR_VALIDATE.filter((m) => loaded.has(m)),
      [],
    );
  });

  it('--version loads none of them either', async () => {
    const loaded = await loadedBy(['--version'], 'version');
    assert.deepEqual(
      NOT_FOR_VALIDATE.filter((m) => loaded.has(m)),
      [],
    );
  });

  it('validate of a config without patterns starts no regex checker and opens no verdict store', async () => {
    const loaded = await loadedBy(['validate', 'examples/quickstart/refunds.eval.yaml'], 'no-patterns');
    assert.deepEqual(
      FOR_PATTERNS_ONLY.filter((m) => loaded.has(m)),
      [],
    );
  });

  it('validate of a config with a pattern loads the checker when it checks it', async () => {
    const loaded = await loadedBy(['validate', 'examples/agent/support-agent.eval.yaml'], 'patterns');
    assert.deepEqual(
      FOR_PATTERNS_ONLY.filter((m) => !loaded.has(m)),
      [],
    );
  });

  it('validate of a config whose patterns have kept verdicts starts no checker thread and loads no crypto', async () => {
    const filling = await loadedBy(['validate', 'examples/agent/support-agent.eval.yaml'], 'fills-verdicts', 'kept');
    assert.ok(filling.has('worker_threads'), 'the first run checked the patterns');
    const loaded = await loadedBy(['validate', 'examples/agent/support-agent.eval.yaml'], 'kept-verdicts', 'kept');
    assert.equal(loaded.has('worker_threads'), false, 'the verdicts were read from the store');
    assert.deepEqual(
      NOT_FOR_ANY_VALIDATE.filter((m) => filling.has(m) || loaded.has(m)),
      [],
    );
  });

  for (const args of [['--version'], ['--help']]) {
    it(`${args.join(' ')} loads nothing a config or a pattern needs`, async () => {
      const loaded = await loadedBy(args, args[0]?.slice(2) ?? '');
      assert.deepEqual(
        [...FOR_PATTERNS_ONLY, ...FOR_CONFIGS_ONLY].filter((m) => loaded.has(m)),
        [],
      );
    });
  }
});
