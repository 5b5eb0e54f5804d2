import packageJson from '../package.json';
import { parseCommand, UsageError, type Command } from './args';
import { commandHelp, GENERAL_HELP } from './help';
import { printable } from '../shared/text/printable';
import { runAsProcess } from './processEntry';
import { rememberCredentialEnvironment } from '../shared/text/secretMask';
import { configureReadLimits } from '../core/text/boundedRead';
import { EXIT } from './exitCodes';

// What only some commands need (running, reports, comparing, merging, the plan) is imported when the
// command is run, not at start-up, and so are `validate` and `plan` (cli/validateCommand.ts): the bundle's
// top-level code then sets up only what parsing the command line, `--help` and `--version` use (esbuild
// keeps a dynamically imported module's set-up in a function, which V8 only pre-parses until it is called).

async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${printable(`evallens: ${e.message}`)}\n`);
      return EXIT.usage;
    }
    throw e;
  }
  // Values of variables named like credentials (`*_API_KEY`, `*PASSWORD*`, …) are masked whether or not
  // the run reads them, since a scorer, a target or a library may print one. An untrusted run starts
  // nothing that could, and reads no variable a workspace may name, so it leaves them unread.
  if (!('untrusted' in command && command.untrusted === true)) rememberCredentialEnvironment(process.env);
  // The file caps a user may raise (docs/limits.md): the user's own environment, never the workspace's.
  for (const problem of configureReadLimits(process.env)) process.stderr.write(`evallens: warning: ${problem}\n`);
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${command.command === undefined ? GENERAL_HELP : commandHelp(command.command)}\n`);
      return EXIT.passed;
    case 'version':
      process.stdout.write(`${packageJson.version}\n`);
      return EXIT.passed;
    case 'validate':
      return (await import('./validateCommand')).validateCommand(command);
    case 'run': {
      const { runAsReport, reportCommand } = await import('./report');
      const results = await runAsReport(command, process.stderr);
      if (results !== undefined) return reportCommand(results, process.stdout, process.stderr);
      return (await import('./runCommand')).run(command);
    }
    case 'report':
      if (command.detailsOf !== undefined)
        return (await import('./reportDetails')).printResultDetails(command.path, command.detailsOf, process.stdout);
      if (command.stream === true)
        return (await import('./reportStream')).streamReportCommand(command.path, process.stdout);
      return (await import('./report')).reportCommand(command, process.stdout, process.stderr);
    case 'compare':
      return (await import('./compare')).compareCommand(command, process.stdout, process.stderr);
    case 'baseline':
      return (await import('./baseline')).baselineCommand(command, process.stdout, process.stderr);
    case 'cache':
      return (await import('./cacheCommand')).cacheCommand(command, process.stdout, process.stderr);
    case 'merge':
      return (await import('./merge')).mergeCommand(command, process.stdout, process.stderr);
    case 'plan':
      return (await import('./validateCommand')).planCommand(command);
  }
}

runAsProcess(main);
