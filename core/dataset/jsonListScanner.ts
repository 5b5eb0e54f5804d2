import type { SourcePosition } from '../text/position';
import { characterAt } from './jsonSyntax';

/**
 * What the scanner of a JSON dataset reports, in file order:
 * - `key`: a field of the root object (its value is an `item` list when the field is the list field,
 *   else one `value`);
 * - `item`: the text of one element of the case list, with its exact span;
 * - `value`: the text of a root field's value that is not the list (the reader checks that it is JSON);
 * - `shape`: the file holds no case list ("the file is empty", "it holds an object without a "cases"
 *   field", "its "cases" field is an object", "it holds a number");
 * - `error`: the text stops being JSON at `at` (nothing after it is reported);
 * - `tooLarge`: one element or value is longer than the bound.
 */
export type ScanEvent =
  | { readonly kind: 'key'; readonly key: string }
  | {
      readonly kind: 'item' | 'value';
      readonly text: string;
      readonly start: SourcePosition;
      readonly end: SourcePosition;
    }
  | { readonly kind: 'shape'; readonly seen: string; readonly start: SourcePosition; readonly at: SourcePosition }
  | { readonly kind: 'error'; readonly at: SourcePosition; readonly what: string }
  | { readonly kind: 'tooLarge'; readonly start: SourcePosition; readonly limit: number };

export interface ScanOptions {
  /** The root object's field that holds the list (a root array is the list itself). */
  readonly listKey: string | undefined;
  /** The longest element or value, in UTF-16 units; a longer one ends the scan with `tooLarge`. */
  readonly maxItemChars: number;
  /** False to only find the structure (keys, placeholders): no text is kept and no item reported. */
  readonly keepText?: boolean;
  /** A root object is not a dataset here (NL2SQL datasets are arrays): "it holds an object". */
  readonly arrayOnly?: boolean;
  /** Called with each `${NAME}` placeholder of the text, anywhere, and its span. */
  readonly onPlaceholder?: (name: string, start: SourcePosition, end: SourcePosition) => void;
}

const enum State {
  Root,
  KeyOrEnd,
  Key,
  KeyString,
  Colon,
  FieldValue,
  AfterField,
  ListOpen,
  ListNext,
  AfterItem,
  RootEnd,
  Capture,
  Done,
}

const enum Capture {
  Nested,
  String,
  Scalar,
  /** `${NAME}` where a value goes (an evalset's placeholder, expanded before the value is parsed). */
  Placeholder,
}

/**
 * A streaming scanner of a JSON dataset: it finds the case list (the root array, or the root
 * object's `listKey` field) and hands over each element's text and span without parsing it, so
 * memory is bounded by the largest element, never by the file. The structure around the elements
 * (brackets, commas, keys, colons) is checked here; each element's own text is checked by whoever
 * parses it. Positions count lines as editors do (`\n`, `\r\n`, lone `\r`) and columns in UTF-16 units.
 */
export class JsonListScanner {
  private state = State.Root;
  private afterCapture = State.Done;
  private captureKind = Capture.Nested;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private pieces: string[] = [];
  private captured = 0;
  private captureStart: SourcePosition = { offset: 0, line: 0, column: 0 };
  private key = '';
  private listSeen = false;
  private rootIsArray = false;
  private rootStart: SourcePosition = { offset: 0, line: 0, column: 0 };
  private watch = 0;
  private watchName = '';
  private watchStart: SourcePosition = { offset: 0, line: 0, column: 0 };
  private offset = 0;
  private line = 0;
  private column = 0;
  private afterCr = false;
  private events: ScanEvent[] = [];

  constructor(private readonly options: ScanOptions) {}

  get done(): boolean {
    return this.state === State.Done;
  }

  /** Whether the root is an array (known once its first character is scanned). */
  get rootArray(): boolean {
    return this.rootIsArray;
  }

  /** Scans the next piece of the text; returns what it completed. */
  push(text: string): ScanEvent[] {
    this.events = [];
    let i = 0;
    while (i < text.length && this.state !== State.Done) {
      if (this.state === State.Capture || this.state === State.KeyString) {
        i = this.captureFrom(text, i);
        continue;
      }
      const code = text.charCodeAt(i);
      if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
        this.advance(code);
        i += 1;
        continue;
      }
      this.settle(code);
      this.structural(text, i, code);
      const now = this.state as State;
      if (now !== State.Capture && now !== State.KeyString) {
        this.advance(code);
        i += 1;
      }
    }
    return this.events;
  }

  /** The end of the text: whatever is still open is an error there. */
  end(): ScanEvent[] {
    this.events = [];
    if (this.afterCr) this.newLine();
    if (this.state === State.Capture && this.captureKind === Capture.Scalar) this.finishCapture();
    const at = this.here();
    switch (this.state) {
      case State.Done:
      case State.RootEnd:
        break;
      case State.Root:
        this.shape('the file is empty', at);
        break;
      case State.Capture:
        // The element's own text says best what is missing; the reader parses it.
        this.emit({
          kind: this.afterCapture === State.AfterItem ? 'item' : 'value',
          text: this.pieces.join(''),
          start: this.captureStart,
          end: at,
        });
        break;
      case State.ListOpen:
      case State.ListNext:
      case State.AfterItem:
        this.fail(at, "expected ']' to close the array, found the end of the file");
        break;
      default:
        this.fail(at, "expected '}' to close the object, found the end of the file");
    }
    this.state = State.Done;
    return this.events;
  }

  private structural(text: string, i: number, code: number): void {
    const at = this.here();
    const found = (): string => characterAt(text, i);
    switch (this.state) {
      case State.Root:
        this.rootStart = at;
        if (code === 0x5b) {
          this.rootIsArray = true;
          this.state = State.ListOpen;
        } else if (code === 0x7b && this.options.arrayOnly !== true) this.state = State.KeyOrEnd;
        else if (startsValue(code)) this.shape(`it holds ${valueKind(code)}`, at);
        else this.fail(at, `expected a value, found ${found()}`);
        return;
      case State.KeyOrEnd:
      case State.Key:
        if (code === 0x7d && this.state === State.KeyOrEnd) this.closeRootObject(at);
        else if (code === 0x22) this.startCapture(at, Capture.String, State.Colon, true);
        else this.fail(at, `expected a property name in double quotes, found ${found()}`);
        return;
      case State.Colon:
        if (code === 0x3a) this.state = State.FieldValue;
        else this.fail(at, `expected ':' after the property name, found ${found()}`);
        return;
      case State.FieldValue:
        if (this.key === this.options.listKey) {
          if (code === 0x5b) this.state = State.ListOpen;
          else if (startsValue(code)) this.shape(`its "${this.key}" field is ${valueKind(code)}`, at);
          else this.fail(at, `expected a value, found ${found()}`);
        } else if (startsValue(code) || code === 0x24) this.startCapture(at, captureOf(code), State.AfterField, false);
        else this.fail(at, `expected a value, found ${found()}`);
        return;
      case State.AfterField:
        if (code === 0x2c) this.state = State.Key;
        else if (code === 0x7d) this.closeRootObject(at);
        else this.fail(at, `expected ',' between values, found ${found()}`);
        return;
      case State.ListOpen:
      case State.ListNext:
        if (code === 0x5d && this.state === State.ListOpen) this.closeList();
        else if (startsValue(code) || code === 0x24) this.startCapture(at, captureOf(code), State.AfterItem, false);
        else this.fail(at, `expected a value, found ${found()}`);
        return;
      case State.AfterItem:
        if (code === 0x2c) this.state = State.ListNext;
        else if (code === 0x5d) this.closeList();
        else this.fail(at, `expected ',' between values, found ${found()}`);
        return;
      case State.RootEnd:
        this.fail(at, `expected the end of the file after the JSON value, found ${found()}`);
        return;
      default:
        return;
    }
  }

  private closeList(): void {
    this.state = this.rootIsArray ? State.RootEnd : State.AfterField;
  }

  private closeRootObject(at: SourcePosition): void {
    if (!this.listSeen) {
      this.shape(`it holds an object without a "${this.options.listKey ?? 'cases'}" field`, at);
      return;
    }
    this.state = State.RootEnd;
  }

  private startCapture(at: SourcePosition, kind: Capture, after: State, isKey: boolean): void {
    this.captureStart = at;
    this.captureKind = kind;
    this.afterCapture = after;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.pieces = [];
    this.captured = 0;
    this.state = isKey ? State.KeyString : State.Capture;
  }

  /** Consumes the captured value's characters from `i`; returns where it stopped. */
  private captureFrom(text: string, i: number): number {
    const from = i;
    let done = false;
    let n = i;
    const nested = this.captureKind === Capture.Nested || this.captureKind === Capture.String;
    while (n < text.length) {
      // The inside of a string (most of a case's text) is passed over up to its closing quote at once.
      if (nested && this.inString && !this.escaped && this.watch === 0) {
        const end = this.plainRunEnd(text, n);
        if (end > n) {
          this.escaped = isEscaped(text, end, n);
          this.skip(end - n);
          n = end;
          if (n === text.length) break;
          // The character at `end` is the closing quote or one to look at alone; an escaped one is
          // passed below with the escape flag already set.
          if (this.escaped) {
            this.escaped = false;
            this.advance(text.charCodeAt(n));
            n += 1;
            continue;
          }
        }
      }
      const code = text.charCodeAt(n);
      if (
        (this.captureKind === Capture.Scalar || this.captureKind === Capture.Placeholder) &&
        n === from &&
        this.captured === 0
      ) {
        // The first character of a scalar is its own.
      } else if (this.captureKind === Capture.Placeholder) {
        if (code === 0x7d) {
          this.advance(code);
          n += 1;
          done = true;
          break;
        }
      } else if (this.captureKind === Capture.Scalar) {
        if (
          code === 0x2c ||
          code === 0x5d ||
          code === 0x7d ||
          code === 0x20 ||
          code === 0x09 ||
          code === 0x0a ||
          code === 0x0d
        ) {
          done = true;
          break;
        }
      } else if (this.escaped) {
        this.escaped = false;
      } else if (this.inString) {
        if (code === 0x5c) this.escaped = true;
        else if (code === 0x22) {
          this.inString = false;
          if (this.captureKind === Capture.String) {
            this.advance(code);
            n += 1;
            done = true;
            break;
          }
        }
      } else if (code === 0x22) this.inString = true;
      else if (code === 0x7b || code === 0x5b) this.depth += 1;
      else if (code === 0x7d || code === 0x5d) {
        this.depth -= 1;
        if (this.depth === 0) {
          this.advance(code);
          n += 1;
          done = true;
          break;
        }
      }
      this.advance(code);
      n += 1;
    }
    if (this.options.keepText !== false || this.state === State.KeyString) this.pieces.push(text.slice(from, n));
    this.captured += n - from;
    if (
      this.captured > this.options.maxItemChars &&
      (this.options.keepText !== false || this.state === State.KeyString)
    ) {
      this.emit({ kind: 'tooLarge', start: this.captureStart, limit: this.options.maxItemChars });
      this.state = State.Done;
      return text.length;
    }
    if (done) this.finishCapture();
    return n;
  }

  private finishCapture(): void {
    const text = this.pieces.join('');
    this.pieces = [];
    if (this.state === State.KeyString) {
      this.key = keyOf(text);
      if (this.key === this.options.listKey) this.listSeen = true;
      this.emit({ kind: 'key', key: this.key });
      this.state = State.Colon;
      return;
    }
    const kind = this.afterCapture === State.AfterItem ? 'item' : 'value';
    if (this.options.keepText !== false) this.emit({ kind, text, start: this.captureStart, end: this.here() });
    this.state = this.afterCapture;
  }

  private shape(seen: string, at: SourcePosition): void {
    this.emit({ kind: 'shape', seen, start: this.rootStart, at });
    this.state = State.Done;
  }

  private fail(at: SourcePosition, what: string): void {
    this.emit({ kind: 'error', at, what });
    this.state = State.Done;
  }

  private emit(event: ScanEvent): void {
    this.events.push(event);
  }

  private here(): SourcePosition {
    return { offset: this.offset, line: this.line, column: this.column };
  }

  /** A line ended by a lone `\r` ends before the next character's position is taken. */
  private settle(code: number): void {
    if (this.afterCr && code !== 0x0a) {
      this.afterCr = false;
      this.newLine();
    }
  }

  /** Moves past one character, counting lines as `LineIndex` does. */
  private advance(code: number): void {
    if (this.afterCr) {
      this.afterCr = false;
      if (code !== 0x0a) this.newLine();
    }
    if (this.options.onPlaceholder !== undefined) this.watchPlaceholder(code);
    this.offset += 1;
    if (code === 0x0a) this.newLine();
    else if (code === 0x0d) this.afterCr = true;
    else this.column += 1;
  }

  private runText = '';
  /** Per text piece: the next `\n`, `\r` and `$` at or after the last place asked (the length when none). */
  private nextLf = -1;
  private nextCr = -1;
  private nextDollar = -1;

  /**
   * Inside a string at `from` (not escaped): where the run of characters that change nothing ends.
   * That is the string's closing quote, or an earlier line end (counted one by one) or `$` (watched
   * for placeholders), or the end of the text.
   */
  private plainRunEnd(text: string, from: number): number {
    if (text !== this.runText) {
      this.runText = text;
      this.nextLf = -1;
      this.nextCr = -1;
      this.nextDollar = -1;
    }
    if (this.nextLf < from) this.nextLf = nextIndex(text, '\n', from);
    if (this.nextCr < from) this.nextCr = nextIndex(text, '\r', from);
    let limit = Math.min(this.nextLf, this.nextCr);
    if (this.options.onPlaceholder !== undefined) {
      if (this.nextDollar < from) this.nextDollar = nextIndex(text, '$', from);
      limit = Math.min(limit, this.nextDollar);
    }
    for (let at = from; ;) {
      const quote = text.indexOf('"', at);
      if (quote === -1 || quote >= limit) return limit;
      if (!isEscaped(text, quote, from)) return quote;
      at = quote + 1;
    }
  }

  /** Passes over `count` characters that are neither line ends nor a watched `$` (`plainRunEnd`). */
  private skip(count: number): void {
    if (this.afterCr) {
      this.afterCr = false;
      this.newLine();
    }
    this.offset += count;
    this.column += count;
  }

  /** Follows `${NAME}` (NAME a shell-style name) through the characters as they go by. */
  private watchPlaceholder(code: number): void {
    if (this.watch === 2) {
      const nameChar =
        code === 0x5f ||
        (code >= 0x41 && code <= 0x5a) ||
        (code >= 0x61 && code <= 0x7a) ||
        (code >= 0x30 && code <= 0x39 && this.watchName !== '');
      if (nameChar) {
        this.watchName += String.fromCharCode(code);
        return;
      }
      if (code === 0x7d && this.watchName !== '') {
        // eslint-disable-next-line no-restricted-syntax -- 0-based arithmetic: the end is one past the `}`
        const end = { offset: this.offset + 1, line: this.line, column: this.column + 1 };
        this.options.onPlaceholder?.(this.watchName, this.watchStart, end);
      }
      this.watch = 0;
    } else if (this.watch === 1) {
      this.watch = code === 0x7b ? 2 : 0;
      this.watchName = '';
    }
    if (this.watch === 0 && code === 0x24) {
      this.watch = 1;
      this.watchStart = this.here();
    }
  }

  private newLine(): void {
    this.line += 1;
    this.column = 0;
  }
}

/** Whether the character at `index` follows an odd run of backslashes (the run starting at or after `from`, which is not escaped). */
function isEscaped(text: string, index: number, from: number): boolean {
  let count = 0;
  for (let j = index - 1; j >= from && text.charCodeAt(j) === 0x5c; j -= 1) count += 1;
  return count % 2 === 1;
}

/** Where `char` next occurs at or after `from`, or the text's length. */
function nextIndex(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

function startsValue(code: number): boolean {
  return (
    code === 0x7b ||
    code === 0x5b ||
    code === 0x22 ||
    code === 0x2d ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x74 ||
    code === 0x66 ||
    code === 0x6e
  );
}

function captureOf(code: number): Capture {
  if (code === 0x7b || code === 0x5b) return Capture.Nested;
  if (code === 0x22) return Capture.String;
  return code === 0x24 ? Capture.Placeholder : Capture.Scalar;
}

function valueKind(code: number): string {
  if (code === 0x7b) return 'an object';
  if (code === 0x5b) return 'an array';
  if (code === 0x22) return 'a string';
  if (code === 0x74 || code === 0x66) return 'a boolean';
  if (code === 0x6e) return 'null';
  return 'a number';
}

/** A key's text (with its quotes) as the string it names. */
function keyOf(text: string): string {
  try {
    const key: unknown = JSON.parse(text);
    return typeof key === 'string' ? key : text;
  } catch {
    return text.slice(1, -1);
  }
}
