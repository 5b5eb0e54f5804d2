/**
 * Help and usage errors: each command's --help (and `evallens help <command>`) prints that command's
 * options; `evallens version` works; a usage error is one line in our words naming the option and
 * pointing at the command's help, not the parser's text and not the whole usage again.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import packageJson from '../../package.json';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-help-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'cli'), work, { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('help', () => {
  it('prints the options of each command for <command> --help, -h and help <command>', async () => {
    const own: Record<string, RegExp[]> = {
      run: [
        /^Usage: evallens run <config\.eval\.yaml>/,
        /^ {2}--untrusted /m,
        /^ {2}--concurrency <n> /m,
        /^Exit codes:/m,
      ],
      validate: [/^Usage: evallens validate <config\.eval\.yaml>/, /^ {2}--cases /m],
      plan: [/^Usage: evallens plan <config\.eval\.yaml>/, /^ {2}--json /m, /^ {2}--filter <glob> /m],
      report: [/^Usage: evallens report <results folder \| report\.json>/, /^ {2}--report-file <path> /m],
      cache: [/^Usage: evallens cache stats/, /^ {2}--cache-dir <dir> /m],
    };
    for (const [command, patterns] of Object.entries(own)) {
      for (const args of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
      ]) {
        const run = await runCli(args, { cwd: work });
        assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
        for (const pattern of patterns) assert.match(run.stdout, pattern, args.join(' '));
      }
    }
    const validate = await runCli(['validate', '--help'], { cwd: work });
    assert.doesNotMatch(validate.stdout, /--reporter|--concurrency/, 'only the options of validate');
  });

  it('prints the commands and exit codes for help, --help and no arguments asks for a command', async () => {
    for (const args of [['help'], ['--help']]) {
      const run = await runCli(args, { cwd: work });
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^ {2}help \[command\] /m);
      assert.match(run.stdout, /^ {2}3 {4}nothing scored/m);
      assert.match(run.stdout, /a --case id the\s+dataset does not have/);
    }
    const none = await runCli([], { cwd: work });
    assert.equal(none.code, 2);
    assert.equal(
      none.stderr,
      'evallens: no command given (expected run, validate, plan, report, compare, baseline, cache or merge); see `evallens --help`\n',
    );
  });

  it('prints the version for version and --version', async () => {
    for (const args of [['version'], ['--version']]) {
      const run = await runCli(args, { cwd: work });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${packageJson.version}\n`);
    }
  });
});

describe('usage errors', () => {
  const cases: readonly [readonly string[], string][] = [
    [['run', 'all-pass.eval.yaml', '--bogus'], '--bogus is not an option of `evallens run`; see `evallens run --help`'],
    [['run', 'all-pass.eval.yaml', '--case'], '--case needs a case id; see `evallens run --help`'],
    [
      ['run', 'all-pass.eval.yaml', '--case', '--untrusted'],
      '--case needs a case id (to give a value that starts with "-", write --case=<value>); see `evallens run --help`',
    ],
    [['run', 'all-pass.eval.yaml', '--untrusted=yes'], '--untrusted takes no value; see `evallens run --help`'],
    [
      ['run', 'all-pass.eval.yaml', 'more.eval.yaml'],
      'unexpected argument "more.eval.yaml": `evallens run` takes one config; see `evallens run --help`',
    ],
    [
      ['validate', 'all-pass.eval.yaml', '--reporter', 'json'],
      '--reporter is not an option of `evallens validate`; see `evallens validate --help`',
    ],
    [
      ['plan', 'all-pass.eval.yaml', '--concurrency', '2'],
      '--concurrency is not an option of `evallens plan`; see `evallens plan --help`',
    ],
    [
      ['help', 'nope'],
      'no command "nope" (expected run, validate, plan, report, compare, baseline, cache, merge); see `evallens --help`',
    ],
    [
      ['rnu', 'all-pass.eval.yaml'],
      'unknown command "rnu" (expected run, validate, plan, report, compare, baseline, cache or merge); see `evallens --help`',
    ],
    [
      ['run', 'all-pass.eval.yaml', '--bad\u001b[31m'],
      '--bad\\u001b[31m is not an option of `evallens run`; see `evallens run --help`',
    ],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')}: one line in our words, exit 2`, async () => {
      const run = await runCli(args, { cwd: work });
      assert.equal(run.code, 2, run.stdout);
      assert.equal(run.stderr, `evallens: ${message}\n`);
      assert.equal(run.stdout, '');
    });
  }
});
