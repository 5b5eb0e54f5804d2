import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { DatasetSource } from './source';
import { unreadable } from './datasetError';

/**
 * Reads a whole dataset file as UTF-8 text (JSON and YAML datasets are parsed as a whole). A leading
 * BOM is dropped so offsets match the text an editor shows; an I/O error is a DatasetError.
 */
export async function readDatasetText(file: string, held?: string): Promise<string> {
  let text: string;
  try {
    text = held ?? (await readFile(file, 'utf8'));
  } catch (error) {
    throw unreadable(file, error);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The bytes of a dataset as a stream: its held text when the host gave one, else the file. */
export function datasetBytes(source: DatasetSource): Readable {
  return source.text === undefined ? createReadStream(source.path) : Readable.from([Buffer.from(source.text, 'utf8')]);
}
