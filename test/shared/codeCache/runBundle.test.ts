/**
 * V8's code cache for our bundles (shared/codeCache/runBundle.ts): a bundle compiled with it runs as
 * Node's own loader would run it, an entry is used only for the same bundle bytes and only when whole,
 * and the built `evallens` command keeps one in the user's cache folder.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeCacheFolder, compileBundle, KEPT_PER_BUNDLE, REFRESHES } from '../../../shared/codeCache/runBundle';
import { CLI } from '../../support/cli';

let work: string;
let bundle: string;
let folder: string;

/** A CommonJS bundle that reports what it sees of its module, its require and a dynamic import. */
function bundleText(answer: number): string {
  return [
    '"use strict";',
    'const helper = require("./helper.js");',
    `module.exports = { answer: ${answer}, filename: __filename, dirname: __dirname, helper,`,
    '  isModule: module.exports === exports };',
    '',
  ].join('\n');
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'evallens-code-cache-'));
  bundle = join(work, 'app.js');
  folder = join(work, 'cache', 'code-cache');
  writeFileSync(bundle, bundleText(41));
  writeFileSync(join(work, 'helper.js'), 'module.exports = "helped";\n');
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('compileBundle', () => {
  it('runs a bundle as Node would (module, exports, __filename, relative require)', () => {
    const compiled = compileBundle(bundle, folder);
    assert.equal(compiled.cache, 'miss');
    assert.equal(compiled.fresh, true);
    const exports = compiled.run() as Record<string, unknown>;
    assert.equal(exports['answer'], 41);
    assert.equal(exports['filename'], bundle);
    assert.equal(exports['dirname'], work);
    assert.equal(exports['helper'], 'helped');
    assert.equal(exports['isModule'], true);
  });

  it('keeps an entry V8 takes next time, private to the user, written again only for its first uses', () => {
    const first = compileBundle(bundle, folder);
    first.keep();
    assert.equal(statSync(first.entry).mode & 0o777, 0o600);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    for (let use = 1; use <= REFRESHES; use++) {
      const next = compileBundle(bundle, folder);
      assert.equal(next.cache, 'hit', `use ${use}`);
      assert.equal(next.fresh, true, `use ${use} still adds what it compiled`);
      next.keep();
    }
    const settled = compileBundle(bundle, folder);
    assert.equal(settled.cache, 'hit');
    assert.equal(settled.fresh, false, 'after its first uses an entry is only read');
  });

  it('ignores an entry that is torn or edited, and writes it again', () => {
    const compiled = compileBundle(bundle, folder);
    const bytes = readFileSync(compiled.entry);
    const edited = Buffer.from(bytes);
    edited[edited.length - 10] = (edited[edited.length - 10] ?? 0) ^ 0xff;
    writeFileSync(compiled.entry, edited);
    const afterEdit = compileBundle(bundle, folder);
    assert.equal(afterEdit.cache, 'miss', 'a payload that does not match its checksum is not given to V8');
    assert.equal((afterEdit.run() as { answer: number }).answer, 41);
    writeFileSync(compiled.entry, bytes.subarray(0, 20));
    assert.equal(compileBundle(bundle, folder).cache, 'miss', 'a truncated entry is a miss');
    afterEdit.keep();
    assert.equal(compileBundle(bundle, folder).cache, 'hit');
  });

  it('never gives one bundle the entry of another of the same length', () => {
    const before = compileBundle(bundle, folder);
    before.keep();
    const other = join(work, 'other', 'app.js');
    execFileSync('mkdir', ['-p', join(work, 'other')]);
    // Same name, same length, one digit different: V8's own check (the source's length) would accept it.
    writeFileSync(other, bundleText(42));
    writeFileSync(join(work, 'other', 'helper.js'), 'module.exports = "helped";\n');
    assert.equal(readFileSync(other).length, readFileSync(bundle).length);
    const changed = compileBundle(other, folder);
    assert.notEqual(changed.entry, before.entry);
    assert.equal(changed.cache, 'miss');
    assert.equal((changed.run() as { answer: number }).answer, 42);
  });

  it(`keeps at most ${KEPT_PER_BUNDLE} entries per bundle name`, () => {
    const builds = join(work, 'builds');
    for (let build = 0; build < KEPT_PER_BUNDLE + 3; build++) {
      const dir = join(builds, String(build));
      execFileSync('mkdir', ['-p', dir]);
      writeFileSync(join(dir, 'app.js'), bundleText(100 + build));
      writeFileSync(join(dir, 'helper.js'), 'module.exports = "helped";\n');
      compileBundle(join(dir, 'app.js'), folder).keep();
    }
    const entries = readdirSync(folder).filter((file) => file.startsWith('app.js-'));
    assert.equal(entries.length, KEPT_PER_BUNDLE);
  });

  it('keeps nothing when the folder cannot be written (the bundle still runs)', () => {
    const locked = join(work, 'locked');
    execFileSync('mkdir', ['-p', locked]);
    chmodSync(locked, 0o500);
    try {
      const compiled = compileBundle(bundle, join(locked, 'code-cache'));
      assert.equal((compiled.run() as { answer: number }).answer, 41);
      compiled.keep();
      // root may write anyway; what matters is that keep never throws and the bundle ran.
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});

describe('codeCacheFolder', () => {
  it('is in the user cache folder, and off with EVALLENS_CODE_CACHE=off', () => {
    assert.equal(codeCacheFolder({ EVALLENS_CACHE_HOME: '/u/cache' }), join('/u/cache', 'code-cache'));
    assert.equal(codeCacheFolder({ EVALLENS_CACHE_HOME: '/u/cache', EVALLENS_CODE_CACHE: 'off' }), undefined);
  });
});

describe('the built evallens command', () => {
  it('keeps the CLI bundle compiled in the user cache folder and answers the same with it', () => {
    const home = join(work, 'cli-cache');
    const env: NodeJS.ProcessEnv = { ...process.env, EVALLENS_CACHE_HOME: home };
    delete env['EVALLENS_CODE_CACHE'];
    const first = execFileSync(process.execPath, [CLI, '--version'], { env, encoding: 'utf8' });
    const entries = readdirSync(join(home, 'code-cache'));
    assert.equal(entries.length, 1);
    assert.match(entries[0] ?? '', /^cli-main\.js-[0-9a-f]{40}\.v8$/);
    const second = execFileSync(process.execPath, [CLI, '--version'], { env, encoding: 'utf8' });
    assert.equal(second, first);
    const off = execFileSync(process.execPath, [CLI, '--version'], {
      env: { ...env, EVALLENS_CACHE_HOME: join(work, 'unused'), EVALLENS_CODE_CACHE: 'off' },
      encoding: 'utf8',
    });
    assert.equal(off, first);
    assert.throws(() => readdirSync(join(work, 'unused')), /ENOENT/);
  });
});
