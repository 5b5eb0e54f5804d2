// EvalBench compatibility check: runs the built CLI over every run config in a local EvalBench
// checkout and prints what loads, what loads with notices, what is refused and — with --run — what
// runs and how it ended. docs/evalbench.md holds its output for the current EvalBench.
//
//   node scripts/evalbench-compat.mjs <evalbench-checkout> [--run] [--trusted] [--json] [--timeout <s>]
//
// Each config is validated and run from the checkout's root, as EvalBench runs from its repository
// root. Runs are `--untrusted` unless `--trusted` is given: a checkout is somebody else's code, and a
// trusted run may start the scorer scripts and judges its configs name. Run folders and reports go to
// a temporary folder that is removed afterwards. Build first (`npm run build`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';

const CLI = resolve(new URL('..', import.meta.url).pathname, 'dist', 'cli.js');
const SKIP_DIRS = new Set(['.git', 'node_modules', '.github', 'k8s', '.venv', '__pycache__']);
const MAX_CONFIG_BYTES = 1024 * 1024;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    run: { type: 'boolean', default: false },
    trusted: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '120' },
  },
});
const [checkout] = positionals;
if (checkout === undefined || !existsSync(checkout) || !statSync(checkout).isDirectory()) {
  process.stderr.write(
    'usage: node scripts/evalbench-compat.mjs <evalbench-checkout> [--run] [--trusted] [--json] [--timeout <s>]\n',
  );
  process.exit(2);
}
if (!existsSync(CLI)) {
  process.stderr.write(`evalbench-compat: ${CLI} is missing; run \`npm run build\` first\n`);
  process.exit(2);
}
const timeoutSeconds = Number.parseInt(values.timeout, 10);
if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1) {
  process.stderr.write(`evalbench-compat: --timeout ${values.timeout}: expected a whole number of seconds\n`);
  process.exit(2);
}
const root = resolve(checkout);

/** Every YAML file under the checkout whose top level names a dataset or scorers: a run config. */
function findRunConfigs(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (!SKIP_DIRS.has(name)) found.push(...findRunConfigs(path));
    } else if (/\.ya?ml$/i.test(name) && stat.size <= MAX_CONFIG_BYTES && isRunConfig(path)) {
      found.push(path);
    }
  }
  return found;
}

function isRunConfig(path) {
  let data;
  try {
    // EvalBench's `!ENV` tag is not a YAML core tag; any unknown tag is read as plain text here.
    data = parseYaml(readFileSync(path, 'utf8'), {
      customTags: [{ tag: '!ENV', resolve: (s) => s }],
      logLevel: 'silent',
    });
  } catch {
    return false;
  }
  return (
    data !== null && typeof data === 'object' && !Array.isArray(data) && ('dataset_config' in data || 'scorers' in data)
  );
}

/** Runs the CLI with a time limit; resolves with its exit code (null on time-out) and output. */
function cli(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      if (stdout.length < 1_000_000) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 1_000_000) stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const PROBLEM = /^(.+?):(\d+):(\d+): (error|warning|information|hint): (.*?)(?: \[([\w-]+)\])?$/;

function problemsOf(stderr) {
  const problems = [];
  for (const line of stderr.split('\n')) {
    const m = PROBLEM.exec(line);
    if (m !== null)
      problems.push({
        file: m[1],
        line: Number(m[2]),
        column: Number(m[3]),
        severity: m[4],
        message: m[5],
        code: m[6] ?? '',
      });
  }
  return problems;
}

function count(problems, severity) {
  return problems.filter((p) => p.severity === severity).length;
}

async function check(configPath) {
  const config = relative(root, configPath);
  const validated = await cli(['validate', config]);
  const problems = problemsOf(validated.stderr);
  const verdict = validated.code === 0 ? (problems.length === 0 ? 'loads' : 'loads with notices') : 'refused';
  const entry = {
    config,
    validate: {
      exitCode: validated.code,
      verdict,
      errors: count(problems, 'error'),
      warnings: count(problems, 'warning'),
      notices: count(problems, 'information'),
    },
    problems,
  };
  if (!values.run || validated.code !== 0) return entry;
  const scratch = mkdtempSync(join(tmpdir(), 'evalbench-compat-'));
  try {
    const out = join(scratch, 'report.json');
    const args = ['run', config, '--no-color', '--reporter', 'json', '--out', out, '--runs-dir', join(scratch, 'runs')];
    const ran = await cli(values.trusted ? args : [...args, '--untrusted']);
    const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
    const lastError =
      problemsOf(ran.stderr).find((p) => p.severity === 'error') ??
      ran.stderr.split('\n').find((l) => l.startsWith('evallens:'));
    entry.run = {
      exitCode: ran.code,
      ...(report === undefined ? {} : { summary: report.summary, judgeSkips: countSkips(report) }),
      ...(report === undefined && lastError !== undefined
        ? { why: typeof lastError === 'string' ? lastError : `${lastError.message} [${lastError.code}]` }
        : {}),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return entry;
}

/** Results skipped, by reason, so the table says why a scorer did not decide. */
function countSkips(report) {
  const reasons = {};
  for (const r of report.results ?? []) {
    if (r.status !== 'skipped') continue;
    const reason = String(r.reason ?? '').slice(0, 80);
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  return reasons;
}

function runCell(run) {
  if (run === undefined) return '';
  if (run.exitCode === null) return `time-out after ${timeoutSeconds} s`;
  if (run.summary === undefined) return `exit ${run.exitCode}: ${run.why ?? 'no report'}`;
  const s = run.summary;
  return `exit ${run.exitCode}: ${s.total} cases — ${s.passed} passed, ${s.failed} failed, ${s.errored} errored, ${s.skipped} skipped`;
}

const configs = findRunConfigs(root);
const entries = [];
for (const config of configs) entries.push(await check(config));

if (values.json) {
  process.stdout.write(`${JSON.stringify({ checkout: root, trusted: values.trusted, entries }, null, 2)}\n`);
} else {
  const tally = (v) => entries.filter((e) => e.validate.verdict === v).length;
  process.stdout.write(
    `${entries.length} run configs: ${tally('loads')} load, ${tally('loads with notices')} load with notices, ${tally('refused')} refused\n\n`,
  );
  process.stdout.write(
    `| config | validate | errors | warnings | notices |${values.run ? ' run |' : ''}\n|---|---|---|---|---|${values.run ? '---|' : ''}\n`,
  );
  for (const e of entries) {
    const v = e.validate;
    process.stdout.write(
      `| ${e.config} | ${v.verdict} (exit ${v.exitCode}) | ${v.errors} | ${v.warnings} | ${v.notices} |${values.run ? ` ${runCell(e.run)} |` : ''}\n`,
    );
  }
  const refusals = entries.flatMap((e) =>
    e.problems.filter((p) => p.severity === 'error').map((p) => `${e.config}: ${p.message} [${p.code}]`),
  );
  if (refusals.length > 0) process.stdout.write(`\nErrors:\n${refusals.map((r) => `- ${r}`).join('\n')}\n`);
}
process.exit(entries.some((e) => e.validate.verdict === 'refused') ? 1 : 0);
