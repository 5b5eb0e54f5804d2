/** One line of a text read piece by piece. */
export interface TextLine {
  /** The line without its terminator (`\n` or `\r\n`). */
  readonly text: string;
  /** 0-based line number. */
  readonly line: number;
  /** UTF-16 offset of the line's start from the start of the text (a BOM is not counted). */
  readonly offset: number;
}

/**
 * Splits a UTF-8 byte stream into lines as it arrives, holding only the current unfinished line:
 * memory stays bounded by the longest line, not the file. A leading BOM is dropped; invalid UTF-8
 * becomes U+FFFD; `\n` and `\r\n` end a line (a lone `\r` does not, as in the editor's line count).
 */
export async function* linesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8');
  let pending: string[] = [];
  let line = 0;
  let offset = 0;

  function* split(text: string): Generator<TextLine> {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const piece = text.slice(start, end);
      const full = pending.length > 0 ? pending.join('') + piece : piece;
      pending = [];
      start = end + 1;
      const current = { text: full.endsWith('\r') ? full.slice(0, -1) : full, line, offset };
      line += 1;
      offset += full.length + 1;
      yield current;
    }
    if (start < text.length) pending.push(text.slice(start));
  }

  for await (const chunk of chunks) yield* split(decoder.decode(chunk, { stream: true }));
  yield* split(decoder.decode());
  if (pending.length > 0) {
    const full = pending.join('');
    yield { text: full.endsWith('\r') ? full.slice(0, -1) : full, line, offset };
  }
}
