import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readJsonl } from '../../../core/dataset/jsonl';
import { withSpiedStreams } from '../../support/spiedStreams';

const LINES = 200_000;

describe('JSONL streaming', () => {
  it('yields the first case long before the stream reaches the end of a large file, and reads it all', async () => {
    await withSpiedStreams(async (folder, streams) => {
      const file = join(folder, 'large.jsonl');
      const out = fs.openSync(file, 'w');
      try {
        const block: string[] = [];
        for (let i = 0; i < LINES; i++) {
          block.push(
            JSON.stringify({ id: `c${i}`, input: `question number ${i}`, expected: 'an answer of modest length' }),
          );
          if (block.length === 10_000) fs.writeSync(out, `${block.splice(0).join('\n')}\n`);
        }
      } finally {
        fs.closeSync(out);
      }
      const size = fs.statSync(file).size;

      let count = 0;
      let bytesAtFirst: number | undefined;
      let lastId = '';
      for await (const record of readJsonl({ path: file })) {
        assert.ok(record.ok);
        if (count === 0) bytesAtFirst = streams[0]?.bytesRead;
        lastId = record.value.case.id;
        count += 1;
      }

      assert.equal(streams.length, 1);
      assert.ok(bytesAtFirst !== undefined && bytesAtFirst > 0);
      assert.ok(bytesAtFirst < size / 20, `read ${bytesAtFirst} of ${size} bytes before the first case`);
      assert.equal(count, LINES);
      assert.equal(lastId, `c${LINES - 1}`);
    });
  });

  it('stops reading and closes the file when the consumer stops early', async () => {
    await withSpiedStreams(async (folder, streams) => {
      const file = join(folder, 'early.jsonl');
      fs.writeFileSync(file, `{"id":"x"}\n${'{"input":"filler"}\n'.repeat(50_000)}`);
      for await (const record of readJsonl({ path: file })) {
        assert.ok(record.ok);
        break;
      }
      const stream = streams[0];
      assert.ok(stream !== undefined);
      const size = fs.statSync(file).size;
      assert.ok(stream.bytesRead < size, `read ${stream.bytesRead} bytes of ${size}`);
      assert.equal(stream.destroyed, true, 'the file is closed');
    });
  });
});
