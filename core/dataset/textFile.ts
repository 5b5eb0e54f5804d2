import { readFile } from 'node:fs/promises';
import { unreadable } from './datasetError';

/**
 * Reads a whole dataset file as UTF-8 text (JSON and YAML datasets are parsed as a whole). A leading
 * BOM is dropped so offsets match the text an editor shows; an I/O error is a DatasetError.
 */
export async function readDatasetText(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw unreadable(file, error);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
