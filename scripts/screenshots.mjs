// `npm run screenshots`: builds, then runs the in-extension-host suite (test/vscode/) in code-server
// once per colour theme, and writes the README's pictures to docs/images/ (see
// test/vscode/support/screenshots.ts). Needs `bash scripts/e2e-setup.sh` once.
import { spawnSync } from 'node:child_process';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;

const built = run('npm', ['run', '--silent', 'build']);
if (built !== 0) process.exit(built);
process.exit(run(process.execPath, ['--import', 'tsx', 'test/vscode/support/screenshots.ts']));
