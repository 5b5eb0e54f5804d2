import { Readable } from 'node:stream';
import { openRegularFileStream, READ_LIMITS, readBoundedText, type ReadRefusal } from '../text/boundedRead';
import type { DatasetSource } from './source';
import { DatasetError, displayPath } from './datasetError';

/**
 * Reads a whole dataset file as UTF-8 text (YAML datasets are parsed as a whole): only a regular file
 * of at most `READ_LIMITS.wholeDataset` bytes. A leading BOM is dropped so offsets match the text an
 * editor shows; a file that cannot be read is a DatasetError.
 */
export async function readDatasetText(file: string, held?: string): Promise<string> {
  let text: string;
  if (held !== undefined) {
    if (held.length > READ_LIMITS.wholeDataset)
      throw refusedDataset(file, {
        ok: false,
        code: 'too-large',
        reason: `expected at most ${READ_LIMITS.wholeDataset} characters, but it has ${held.length}`,
      });
    text = held;
  } else {
    const read = await readBoundedText(file, 'wholeDataset');
    if (!read.ok) throw refusedDataset(file, read);
    text = read.text;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The bytes of a dataset as a stream: its held text when the host gave one, else the file — a
 * regular file only (a symlink to /dev/zero or a FIFO is a DatasetError, thrown here). Streamed
 * readers bound each record, so there is no whole-file cap.
 */
export function datasetBytes(source: DatasetSource): Readable {
  if (source.text !== undefined) return Readable.from([Buffer.from(source.text, 'utf8')]);
  const opened = openRegularFileStream(source.path);
  if (!opened.ok) throw refusedDataset(source.path, opened);
  return opened.stream;
}

function refusedDataset(file: string, refusal: ReadRefusal): DatasetError {
  return new DatasetError(file, `cannot read dataset ${displayPath(file)}: ${refusal.reason}`);
}
