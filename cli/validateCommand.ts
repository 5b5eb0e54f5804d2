import { DatasetError } from '../core/dataset/datasetError';
import { printable } from '../shared/text/printable';
import type { Command } from './args';
import { printCaseData } from './caseData';
import { printCaseLists } from './caseList';
import { environmentOf, EXIT, inputsLoad, loadConfig, printDatasetError, selectionExists } from './commandSupport';

// `validate` and `plan`, apart from cli/main.ts so that `--help` and `--version` load none of what
// reading a config needs (cli/main.ts imports this file when one of the two runs).

export async function validateCommand(command: Extract<Command, { kind: 'validate' }>): Promise<number> {
  const env = environmentOf(command);
  if (command.listCases === true) return printCaseLists([command.config, ...(command.moreConfigs ?? [])], env);
  if (command.caseData !== undefined) return printCaseData(command.config, command.caseData, env);
  const config = loadConfig(command.config, env);
  if (config === undefined || !(await inputsLoad(config, env, { readCases: true }))) return EXIT.usage;
  process.stdout.write(
    `${printable(command.config)}: valid (${config.scorers.length} scorer${config.scorers.length === 1 ? '' : 's'})\n`,
  );
  return EXIT.passed;
}

export async function planCommand(command: Extract<Command, { kind: 'plan' }>): Promise<number> {
  const env = environmentOf(command);
  const config = loadConfig(command.config, env);
  if (config === undefined || !(await inputsLoad(config, env, { readCases: false }))) return EXIT.usage;
  try {
    if (!(await selectionExists(config, command))) return EXIT.usage;
    await (await import('./plan')).printPlan(config, command, process.stdout);
  } catch (e) {
    if (e instanceof DatasetError) return printDatasetError(e, config);
    throw e;
  }
  return EXIT.passed;
}
