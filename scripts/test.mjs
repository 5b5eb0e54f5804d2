// Runs the test files under the given folders (default: test/) with Node's own test runner, with tsx
// so the TypeScript sources run as they are. Node 20's --test takes no globs, hence the listing here.
//
// With no arguments (`npm test`, so CI) it runs two suites one after the other: every test under
// test/ except test/e2e, then the end-to-end suite test/e2e (the packaged extension in a real VS Code;
// it needs `bash scripts/e2e-setup.sh` once and fails saying so otherwise), one file at a time since
// each starts its own code-server and browser. Both always run; the exit code is the first failure's.
// With arguments it runs exactly the files and folders given, in one invocation.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const E2E = join('test', 'e2e');

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
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...extraArgs, ...files], { stdio: 'inherit' });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.length > 0) {
  process.exit(runTests(listTestFiles(args)));
} else {
  const unit = runTests(listTestFiles(['test'], { skip: [E2E] }));
  const e2e = runTests(listTestFiles([E2E]), ['--test-concurrency=1']);
  process.exit(unit !== 0 ? unit : e2e);
}
