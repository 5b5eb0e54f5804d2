import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { PatternSafety } from '../../../core/scorers/support/boundedRegex';
import { verdictKey } from '../../../core/scorers/support/boundedRegex';
import { KeptVerdicts } from '../../../core/scorers/support/keptVerdicts';
import { cacheHome } from '../../../shared/cacheHome';
import { MAX_FILE_BYTES, parseLines, VerdictStore } from '../../../shared/regexVerdicts/verdictStore';

const folders: string[] = [];
function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'evallens-verdicts-'));
  folders.push(folder);
  return folder;
}
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const SAFE: PatternSafety = { status: 'safe', proven: true, complexity: 'linear' };
const VULNERABLE: PatternSafety = {
  status: 'vulnerable',
  complexity: 'exponential',
  hotspots: [{ start: 2, end: 3, text: 'a' }],
  message: 'can backtrack catastrophically',
};
const key = (source: string, checker = 'recheck@4.5.0/native') => verdictKey(checker, 800, 'u', source);

describe('VerdictStore', () => {
  it('answers a verdict another process wrote (a hit) and nothing for a pattern never checked (a miss)', () => {
    const folder = freshFolder();
    new VerdictStore(folder).set(key('^(a+)+$'), VULNERABLE);
    new VerdictStore(folder).set(key('^ok$'), SAFE);
    const later = new VerdictStore(folder);
    assert.deepEqual(later.get(key('^(a+)+$')), VULNERABLE);
    assert.deepEqual(later.get(key('^ok$')), SAFE);
    assert.equal(later.get(key('^never$')), undefined);
  });

  it('writes no pattern text: only hashes of the keys, the verdicts and their checksums', () => {
    const store = new VerdictStore(freshFolder());
    store.set(key('^secret-looking-pattern\\d+$'), SAFE);
    const text = readFileSync(store.file, 'utf8');
    assert.doesNotMatch(text, /secret-looking-pattern/);
    assert.match(text, /^[0-9a-f]{64}\t\{.*\}\t[0-9a-f]{16}\n$/);
  });

  it('ignores a torn, edited or malformed line and keeps reading the others', () => {
    const folder = freshFolder();
    const store = new VerdictStore(folder);
    store.set(key('^first$'), SAFE);
    store.set(key('^(a+)+$'), VULNERABLE);
    const lines = readFileSync(store.file, 'utf8').split('\n');
    // Turn the vulnerable verdict into a "safe" one without fixing its checksum, as an edit or a bit flip would.
    const edited = (lines[1] ?? '').replace('"status":"vulnerable"', '"status":"safe","proven":true,"x":"');
    writeFileSync(
      store.file,
      [lines[0], edited, 'torn line without tabs', `${'0'.repeat(64)}\t{}\t0000`, ''].join('\n'),
    );
    appendFileSync(store.file, (lines[0] ?? '').slice(0, 50));
    const later = new VerdictStore(folder);
    assert.deepEqual(later.get(key('^first$')), SAFE);
    assert.equal(later.get(key('^(a+)+$')), undefined, 'the edited line is a miss, so the pattern is checked again');
    assert.equal(parseLines(readFileSync(store.file, 'utf8')).size, 1);
  });

  it('refuses a line with a right checksum but not the shape of a verdict', () => {
    const store = new VerdictStore(freshFolder());
    store.set(key('^x$'), { status: 'invalid', message: 'x' } as PatternSafety);
    store.set(key('^y$'), { status: 'safe', proven: 'yes' } as unknown as PatternSafety);
    assert.equal(parseLines(readFileSync(store.file, 'utf8')).size, 0);
  });

  it('misses when the checker changes: another version or backend checks the pattern again', () => {
    const folder = freshFolder();
    new VerdictStore(folder).set(key('^(a+)+$', 'recheck@4.5.0/native'), VULNERABLE);
    const later = new VerdictStore(folder);
    assert.deepEqual(later.get(key('^(a+)+$', 'recheck@4.5.0/native')), VULNERABLE);
    assert.equal(later.get(key('^(a+)+$', 'recheck@4.6.0/native')), undefined);
    assert.equal(later.get(key('^(a+)+$', 'recheck@4.5.0/pure')), undefined);
    assert.equal(later.get(verdictKey('recheck@4.5.0/native', 5000, 'u', '^(a+)+$')), undefined, 'another time limit');
  });

  it('keeps every line when two processes write at once', async () => {
    const folder = freshFolder();
    const perProcess = 300;
    const writer = (name: string) =>
      new Promise<void>((done, fail) => {
        const script = [
          `const { VerdictStore } = require(${JSON.stringify(resolve(__dirname, '../../../shared/regexVerdicts/verdictStore.ts'))});`,
          `const store = new VerdictStore(${JSON.stringify(folder)});`,
          `for (let i = 0; i < ${perProcess}; i++) store.set(JSON.stringify(['c', 800, 'u', '${name}' + i]), { status: 'safe', proven: true, complexity: 'linear' });`,
        ].join('\n');
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', fail);
        child.on('close', (code) =>
          code === 0 ? done() : fail(new Error(`writer ${name} exited ${code}: ${stderr}`)),
        );
      });
    await Promise.all([writer('a'), writer('b')]);
    const text = readFileSync(join(folder, 'regex-verdicts-v1.txt'), 'utf8');
    assert.equal(text.split('\n').length - 1, 2 * perProcess, 'one line per verdict');
    const read = new VerdictStore(folder);
    for (const name of ['a', 'b'])
      for (let i = 0; i < perProcess; i++)
        assert.deepEqual(read.get(JSON.stringify(['c', 800, 'u', `${name}${i}`])), SAFE);
  });

  it('stays bounded: past its size limit the file is rewritten with its newest verdicts', () => {
    const folder = freshFolder();
    const store = new VerdictStore(folder);
    let n = 0;
    const size = () => statSync(store.file, { throwIfNoEntry: false })?.size ?? 0;
    // Bounded: each verdict adds over 100 bytes.
    while (size() <= MAX_FILE_BYTES && n < MAX_FILE_BYTES / 100) store.set(key(`^p${n++}$`), SAFE);
    assert.ok(size() > MAX_FILE_BYTES);
    const later = new VerdictStore(folder);
    assert.deepEqual(later.get(key(`^p${n - 1}$`)), SAFE, 'the newest verdict is kept');
    assert.equal(later.get(key('^p0$')), undefined, 'the oldest went');
    assert.ok(statSync(store.file).size <= MAX_FILE_BYTES / 2);
  });

  it('turns itself off, answering nothing, where the folder cannot be made', () => {
    const file = join(freshFolder(), 'a-file');
    writeFileSync(file, '');
    const store = new VerdictStore(join(file, 'below'));
    store.set(key('^x$'), SAFE);
    assert.equal(store.get(key('^x$')), undefined);
  });
});

describe('cacheHome', () => {
  it('takes EVALLENS_CACHE_HOME, else XDG_CACHE_HOME/evallens, else ~/.cache/evallens', () => {
    assert.equal(cacheHome({ EVALLENS_CACHE_HOME: '/c/own', XDG_CACHE_HOME: '/c/xdg' }), '/c/own');
    assert.equal(cacheHome({ XDG_CACHE_HOME: '/c/xdg' }), join('/c/xdg', 'evallens'));
    assert.match(cacheHome({ XDG_CACHE_HOME: 'relative' }) ?? '', /\.cache[/\\]evallens$/);
  });
});

describe('KeptVerdicts', () => {
  it('reads through to the store once, then from memory, and keeps a verdict that is not durable out of the store', () => {
    const folder = freshFolder();
    const store = new VerdictStore(folder);
    store.set(key('^on-disk$'), SAFE);
    const kept = new KeptVerdicts(10, new VerdictStore(folder));
    assert.deepEqual(kept.get(key('^on-disk$')), SAFE);
    assert.equal(kept.size, 1);
    kept.set(key('^slow$'), { status: 'unknown', message: 'no answer in time' }, false);
    assert.equal(kept.get(key('^slow$'))?.status, 'unknown');
    assert.equal(new VerdictStore(folder).get(key('^slow$')), undefined);
  });

  it("keeps recheck's out-of-time answer only when the machine was idle, and counts it as load-dependent", () => {
    const folder = freshFolder();
    const OUT_OF_TIME: PatternSafety = { status: 'unknown', message: 'recheck could not decide (timeout)' };
    const busy = new VerdictStore(folder);
    busy.loadAverage = () => [64, 64, 64];
    const keptBusy = new KeptVerdicts(10, busy);
    keptBusy.set(key('^(\\w+\\s?)*$'), OUT_OF_TIME, 'if-idle');
    assert.equal(keptBusy.get(key('^(\\w+\\s?)*$'))?.status, 'unknown', 'this process still uses it');
    assert.equal(new VerdictStore(folder).get(key('^(\\w+\\s?)*$')), undefined, 'a busy machine keeps nothing');
    assert.equal(keptBusy.loadDependent, 1);

    const idle = new VerdictStore(folder);
    idle.loadAverage = () => [0, 0, 0];
    const keptIdle = new KeptVerdicts(10, idle);
    keptIdle.set(key('^(\\w+\\s?)*$'), OUT_OF_TIME, 'if-idle');
    assert.deepEqual(new VerdictStore(folder).get(key('^(\\w+\\s?)*$')), OUT_OF_TIME);
    keptIdle.set(key('^ok$'), SAFE);
    assert.equal(keptIdle.loadDependent, 1, 'a definite verdict is not load-dependent');
  });
});
