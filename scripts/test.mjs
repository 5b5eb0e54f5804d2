// Runs the test files under the given folders (default: test/) with Node's own test runner, with tsx
// so the TypeScript sources run as they are. Node 20's --test takes no globs, hence the listing here.
//
// With no arguments (`npm test`, so CI) it runs every test under test/, the end-to-end suite test/e2e
// (the packaged extension in a real VS Code) and the in-extension-host suite test/vscode last, in one
// invocation so there is one summary. Each of those files starts its own code-server (on a free port)
// and browser, so they may run beside other files.
// With arguments it runs exactly the files and folders given, in one invocation.
//
// With no arguments it first sets up what the whole suite needs, so one command runs it on a fresh
// machine: a throwaway PostgreSQL on loopback (scripts/postgres.sh, unless EVALLENS_PG_URL is already
// set), a throwaway MariaDB for the MySQL engine (scripts/mariadb.sh, unless EVALLENS_MYSQL_URL is
// set) and Chromium + code-server (scripts/e2e-setup.sh). All are idempotent and quick once done;
// all install Debian packages the first time, so run as root (as CI does). A setup that fails stops
// the run with its reason: a suite that silently ran without its database or browser would not be
// the whole suite. EVALLENS_TEST_NO_SETUP=1 skips the setup (the PostgreSQL and MySQL tests then
// say they were skipped, unless their URL is set; the e2e suite fails saying what to install).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The suite keeps ReDoS verdicts (shared/regexVerdicts/verdictStore.ts) in a folder of its own, removed
// at the end: it never reads or writes the user's cache, and every run starts cold.
if (process.env.EVALLENS_CACHE_HOME === undefined) {
  const cache = mkdtempSync(join(tmpdir(), 'evallens-test-cache-'));
  process.env.EVALLENS_CACHE_HOME = cache;
  process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
}

const E2E = join('test', 'e2e');
/** The in-extension-host suite (code-server too): with the end-to-end files, after the setup they share. */
const IN_HOST = join('test', 'vscode');

function listTestFiles(roots, { skip = [] } = {}) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'fixtures' || name === 'artifacts' || skip.includes(path)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const root of roots) {
    if (statSync(root).isDirectory()) walk(root);
    else files.push(root);
  }
  return files;
}

function runTests(files, extraArgs = []) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', ...extraArgs, ...files],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

/** Runs a setup script; on failure says which and exits, since the suite would be incomplete. */
function setUp(script, why) {
  const result = spawnSync('bash', [script], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `\nnpm test: \`bash ${script}\` failed (${why}). Run it on its own to see why (it needs root the first time, for apt-get), or set EVALLENS_TEST_NO_SETUP=1 to run without it.`,
    );
    process.exit(result.status ?? 1);
  }
}

const args = process.argv.slice(2);
if (args.length === 0 && process.env.EVALLENS_TEST_NO_SETUP !== '1') {
  if (process.env.EVALLENS_PG_URL === undefined) {
    setUp(join('scripts', 'postgres.sh'), 'the PostgreSQL the SQL engine tests run on');
    process.env.EVALLENS_PG_URL = `postgres://postgres@127.0.0.1:${process.env.EVALLENS_PG_PORT ?? '54329'}/evallens_test`;
  }
  setUp(join('scripts', 'e2e-setup.sh'), 'Chromium and code-server for the end-to-end suite');
}
// MariaDB also for a run of chosen SQL test files: the MySQL tests skip only when EVALLENS_MYSQL_URL is
// unset and the setup was turned off.
if (
  process.env.EVALLENS_TEST_NO_SETUP !== '1' &&
  process.env.EVALLENS_MYSQL_URL === undefined &&
  (args.length === 0 || args.some((arg) => /sql/i.test(arg)))
) {
  setUp(join('scripts', 'mariadb.sh'), 'the MariaDB the MySQL engine tests run on');
  process.env.EVALLENS_MYSQL_URL = `mysql://root@127.0.0.1:${process.env.EVALLENS_MYSQL_PORT ?? '33069'}/evallens_test`;
}
if (args.length > 0) {
  process.exit(runTests(listTestFiles(args)));
} else {
  const unit = listTestFiles(['test'], { skip: [E2E, IN_HOST] });
  const e2e = listTestFiles([E2E, IN_HOST]);
  process.exit(runTests([...unit, ...e2e]));
}
