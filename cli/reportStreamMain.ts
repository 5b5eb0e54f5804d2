/**
 * `evallens report <report.json> --stream` as a bundle of its own (dist/reportStream.js), which the
 * results view forks (extension/results/reportStream.ts): it loads only what reads and checks a
 * report, not the whole CLI, so the view's first part is not kept waiting by the CLI's start-up.
 * The same command as `dist/cli.js report <file> --stream`, with the same output and exit codes; and
 * `report <file> --details-of=<case id>` (cli/reportDetails.ts), which the view asks when a row opens.
 */
import { configureReadLimits } from '../core/text/boundedRead';
import { rememberCredentialEnvironment } from '../shared/text/secretMask';
import { runAsProcess } from './processEntry';
import { printResultDetails } from './reportDetails';
import { streamReportCommand } from './reportStream';

const USAGE =
  'usage: reportStream.js report <report.json | run folder> (--stream | --details-of=<case id>) [--no-color]';
const DETAILS_OF = '--details-of=';

async function main(argv: readonly string[]): Promise<number> {
  const [command, path, ...rest] = argv;
  const options = rest.filter((a) => a !== '--no-color');
  const detailsOf = options.length === 1 && options[0]?.startsWith(DETAILS_OF) ? options[0] : undefined;
  if (
    command !== 'report' ||
    path === undefined ||
    path.startsWith('-') ||
    (detailsOf === undefined && (options.length !== 1 || options[0] !== '--stream'))
  ) {
    process.stderr.write(`evallens: ${USAGE}\n`);
    return 2;
  }
  // As the CLI does (cli/main.ts): credentials masked on stderr, the user's own read caps.
  rememberCredentialEnvironment(process.env);
  for (const problem of configureReadLimits(process.env)) process.stderr.write(`evallens: warning: ${problem}\n`);
  if (detailsOf !== undefined) return printResultDetails(path, detailsOf.slice(DETAILS_OF.length), process.stdout);
  return streamReportCommand(path, process.stdout);
}

runAsProcess(main);
