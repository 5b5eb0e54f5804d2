// dist/cli.js, the `evallens` command: starts the CLI's bundle (dist/cli-main.js, cli/main.ts) through
// V8's code cache, so each start does not compile the whole bundle again (shared/codeCache/runBundle.ts).
import { join } from 'node:path';
import { runBundle } from '../shared/codeCache/runBundle';

runBundle(join(__dirname, 'cli-main.js'));
