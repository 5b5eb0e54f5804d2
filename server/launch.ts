// dist/server.js, the language server editors start: runs the server's bundle (dist/server-main.js,
// server/main.ts) through V8's code cache, so its first diagnostics do not wait for the whole bundle to
// compile again (shared/codeCache/runBundle.ts).
import { join } from 'node:path';
import { runBundle } from '../shared/codeCache/runBundle';

runBundle(join(__dirname, 'server-main.js'));
