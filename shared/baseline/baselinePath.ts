/**
 * Where a config's baseline file lives: `refunds.eval.yaml` → `refunds.baseline.json`, beside it. The
 * name `evallens baseline save` writes (cli/baseline.ts) and the extension looks for, so both sides
 * agree on it; test/shared/baseline/baselinePath.test.ts checks it against the CLI's file.
 */
import { basename, dirname, join } from 'node:path';

export function baselineFileOf(configFile: string): string {
  const name = basename(configFile).replace(/(\.eval)?\.ya?ml$/i, '');
  return join(dirname(configFile), `${name}.baseline.json`);
}
