import { decodeLine } from './JournalLine.ts';
import type { JournalLine, LineFault } from './JournalLine.ts';
import { fromUtf8 } from './digest.ts';

/** One good line of the journal, with where it is. */
export interface JournalEntry {
  readonly line: JournalLine;
  /** The exact JSON body the checksum and the chain cover. */
  readonly body: string;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** 1-based line number. */
  readonly lineNo: number;
  /** Byte length including the newline. */
  readonly length: number;
}

/** A bad spot in the journal. */
export interface JournalFault {
  readonly offset: number;
  readonly lineNo: number;
  readonly reason: LineFault | 'incomplete_line';
  readonly message: string;
}

/** What {@link scanJournal} found. */
export interface JournalScan {
  /** The good lines, in order (empty when they were handed to a visitor instead). */
  readonly entries: readonly JournalEntry[];
  /** How many good lines there are. */
  readonly lines: number;
  /** Bytes up to the end of the last good line (absolute offset). */
  readonly end: number;
  /** Bad bytes after the last good line (a torn tail: cut it), or `null`. */
  readonly tail: (JournalFault & { readonly bytes: number }) | null;
  /** A bad line with good lines after it (corruption: stop), or `null`. */
  readonly corruption: JournalFault | null;
}

const NEWLINE = 0x0a;
const BOM = 0xfeff;

/** The bytes' text when they are valid UTF-8 (validated and decoded in one pass), else `null`. A leading byte-order mark is kept. */
function wholeText(bytes: Uint8Array): string | null {
  try {
    return wholeDecoder.decode(bytes);
  } catch {
    return null;
  }
}

const wholeDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of each line, in order. Decoding 100,000 lines one by one costs more than
 * validating the whole journal once and decoding it in one go; a line's text is the same
 * either way (a newline byte is never part of a multi-byte UTF-8 sequence, so the whole is
 * valid exactly when every line is, and a line's own decoding drops a leading byte-order
 * mark, as done here). A journal that is not valid UTF-8 is decoded line by line, so that
 * only its bad lines are refused.
 */
class LineTexts {
  private readonly text: string | null;
  private cursor = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.text = wholeText(bytes.subarray(0, bytes.lastIndexOf(NEWLINE) + 1));
  }

  /** The text of the line from byte `start` to its newline at byte `nl`; `null` when it is not UTF-8. */
  next(start: number, nl: number): string | null {
    if (this.text === null) return fromUtf8(this.bytes.subarray(start, nl));
    const end = this.text.indexOf('\n', this.cursor);
    const from = this.text.charCodeAt(this.cursor) === BOM ? this.cursor + 1 : this.cursor;
    this.cursor = end + 1;
    return this.text.slice(from, end);
  }
}

/**
 * Splits journal bytes into checked lines. Whatever follows the last good line and is not
 * itself a good line is the torn tail of an interrupted append; a bad line that good lines
 * follow is corruption, which no crash produces. `offset` and `firstLine` place `bytes`
 * within the file (for reading only what another writer appended).
 *
 * With `visit`, each good line is handed to it as it is read and not kept (`entries` is
 * empty): opening a store replays 100,000 lines this way, and a line's text and entry then
 * die young instead of being carried through the whole read by the garbage collector.
 * Lines are still judged as a whole: a visitor learns of corruption only from the result.
 */
export function scanJournal(bytes: Uint8Array, offset = 0, firstLine = 1, visit?: (entry: JournalEntry) => void): JournalScan {
  const entries: JournalEntry[] = [];
  let good = 0;
  let end = offset;
  let firstBad: JournalFault | null = null;
  let corruption: JournalFault | null = null;
  let start = 0;
  let lineNo = firstLine;
  const lines = new LineTexts(bytes);
  while (start < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, start);
    const at = offset + start;
    if (nl < 0) {
      firstBad ??= { offset: at, lineNo, reason: 'incomplete_line', message: 'the last line has no newline' };
      break;
    }
    const text = lines.next(start, nl);
    const decoded = text === null ? ({ ok: false, fault: 'invalid_line', message: 'not UTF-8' } as const) : decodeLine(text);
    if (decoded.ok) {
      if (firstBad) {
        corruption ??= firstBad;
        firstBad = null;
      }
      const entry: JournalEntry = { line: decoded.line, body: decoded.body, offset: at, lineNo, length: nl + 1 - start };
      if (visit) visit(entry);
      else entries.push(entry);
      good += 1;
      end = offset + nl + 1;
    } else {
      firstBad ??= { offset: at, lineNo, reason: decoded.fault, message: decoded.message };
    }
    start = nl + 1;
    lineNo += 1;
  }
  const tail = firstBad && !corruption ? { ...firstBad, bytes: offset + bytes.length - firstBad.offset } : null;
  if (corruption) return { entries, lines: good, end, tail: null, corruption };
  return { entries, lines: good, end, tail, corruption: null };
}
