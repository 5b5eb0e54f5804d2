/** Reads of files a config names: regular files only, each kind capped, without hanging on a FIFO. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  openRegularFileStream,
  READ_LIMITS,
  readBoundedBytes,
  readBoundedText,
  readBoundedTextSync,
} from '../../../core/text/boundedRead';

describe('bounded reads', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'evallens-bounded-'));
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    mkdirSync(join(dir, 'folder.yaml'));
    writeFileSync(join(dir, 'ok.yaml'), 'a: 1\n');
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(READ_LIMITS.config + 1, 0x61));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file whole, as text and as bytes', async () => {
    assert.deepEqual(readBoundedTextSync(join(dir, 'ok.yaml'), 'config'), { ok: true, text: 'a: 1\n' });
    assert.deepEqual(await readBoundedText(join(dir, 'ok.yaml'), 'config'), { ok: true, text: 'a: 1\n' });
    const bytes = await readBoundedBytes(join(dir, 'ok.yaml'), 'sqliteDatabase');
    assert.ok(bytes.ok);
    assert.equal(bytes.bytes.toString('utf8'), 'a: 1\n');
  });

  it('refuses a symlink to /dev/zero, a FIFO and a folder before reading, naming what it is', async () => {
    const cases: [string, RegExp][] = [
      ['zero.yaml', /expected a regular file, but it is a character device/],
      ['pipe.yaml', /expected a regular file, but it is a named pipe/],
      ['folder.yaml', /^it is a folder, not a file$/],
    ];
    for (const [name, reason] of cases) {
      const file = join(dir, name);
      const sync = readBoundedTextSync(file, 'config');
      assert.equal(sync.ok, false, name);
      if (!sync.ok) assert.match(sync.reason, reason);
      const asyncRead = await readBoundedBytes(file, 'sqliteDatabase');
      assert.equal(asyncRead.ok, false, name);
      if (!asyncRead.ok) assert.match(asyncRead.reason, reason);
      const stream = openRegularFileStream(file);
      assert.equal(stream.ok, false, name);
      if (!stream.ok) assert.match(stream.reason, reason);
    }
  });

  it("refuses a file over its kind's cap, saying the cap and the size", () => {
    const read = readBoundedTextSync(join(dir, 'big.yaml'), 'config');
    assert.equal(read.ok, false);
    if (!read.ok)
      assert.equal(
        read.reason,
        `expected at most ${READ_LIMITS.config} bytes (4 MiB), but it has ${READ_LIMITS.config + 1}`,
      );
  });

  it('says "no such file" for a missing one', () => {
    const read = readBoundedTextSync(join(dir, 'missing.yaml'), 'config');
    assert.deepEqual(read, { ok: false, code: 'ENOENT', reason: 'no such file' });
  });
});
