/** One line of a text read piece by piece. */
export interface TextLine {
  /** The line without its terminator (`\n` or `\r\n`). */
  readonly text: string;
  /** 0-based line number. */
  readonly line: number;
  /** UTF-16 offset of the line's start from the start of the text (a BOM is not counted). */
  readonly offset: number;
  /** Set when the line was longer than the reader's maximum: its length, and `text` is empty (the line was not kept). */
  readonly overLength?: number;
}

/**
 * Splits a UTF-8 byte stream into lines as it arrives, holding only the current unfinished line:
 * memory stays bounded by `maxLineChars` (UTF-16 units), not the file. A line longer than that is not
 * kept: it comes back with empty `text` and its `overLength`, and the next line is read as usual. A
 * leading BOM is dropped; invalid UTF-8 becomes U+FFFD; `\n` and `\r\n` end a line (a lone `\r`
 * does not, as in the editor's line count).
 */
export async function* linesOf(
  chunks: AsyncIterable<Uint8Array>,
  maxLineChars = Number.POSITIVE_INFINITY,
): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8');
  let pending: string[] = [];
  // Length of the unfinished line so far, kept or not (an over-long line's text is dropped as it comes).
  let pendingLength = 0;
  let line = 0;
  let offset = 0;

  function finish(piece: string): TextLine {
    const length = pendingLength + piece.length;
    let current: TextLine;
    if (length > maxLineChars) {
      const endsWithCr =
        piece.length > 0 ? piece.endsWith('\r') : (pending[pending.length - 1]?.endsWith('\r') ?? false);
      current = { text: '', line, offset, overLength: endsWithCr ? length - 1 : length };
    } else {
      const full = pending.length > 0 ? pending.join('') + piece : piece;
      current = { text: full.endsWith('\r') ? full.slice(0, -1) : full, line, offset };
    }
    pending = [];
    pendingLength = 0;
    line += 1;
    offset += length + 1;
    return current;
  }

  function* split(text: string): Generator<TextLine> {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield finish(text.slice(start, end));
      start = end + 1;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      pendingLength += rest.length;
      // Past the maximum only the length is counted; the last piece is kept to see a `\r` before the `\n`.
      if (pendingLength > maxLineChars) pending = [rest.slice(-1)];
      else pending.push(rest);
    }
  }

  for await (const chunk of chunks) yield* split(decoder.decode(chunk, { stream: true }));
  yield* split(decoder.decode());
  if (pendingLength > 0) yield finish('');
}
