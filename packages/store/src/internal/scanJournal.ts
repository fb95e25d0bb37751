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
  readonly entries: readonly JournalEntry[];
  /** Bytes up to the end of the last good line (absolute offset). */
  readonly end: number;
  /** Bad bytes after the last good line (a torn tail: cut it), or `null`. */
  readonly tail: (JournalFault & { readonly bytes: number }) | null;
  /** A bad line with good lines after it (corruption: stop), or `null`. */
  readonly corruption: JournalFault | null;
}

const NEWLINE = 0x0a;

/**
 * Splits journal bytes into checked lines. Whatever follows the last good line and is not
 * itself a good line is the torn tail of an interrupted append; a bad line that good lines
 * follow is corruption, which no crash produces. `offset` and `firstLine` place `bytes`
 * within the file (for reading only what another writer appended).
 */
export function scanJournal(bytes: Uint8Array, offset = 0, firstLine = 1): JournalScan {
  const entries: JournalEntry[] = [];
  let firstBad: JournalFault | null = null;
  let corruption: JournalFault | null = null;
  let start = 0;
  let lineNo = firstLine;
  while (start < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, start);
    const at = offset + start;
    if (nl < 0) {
      firstBad ??= { offset: at, lineNo, reason: 'incomplete_line', message: 'the last line has no newline' };
      break;
    }
    const text = fromUtf8(bytes.subarray(start, nl));
    const decoded = text === null ? ({ ok: false, fault: 'invalid_line', message: 'not UTF-8' } as const) : decodeLine(text);
    if (decoded.ok) {
      if (firstBad) {
        corruption ??= firstBad;
        firstBad = null;
      }
      entries.push({ line: decoded.line, body: decoded.body, offset: at, lineNo, length: nl + 1 - start });
    } else {
      firstBad ??= { offset: at, lineNo, reason: decoded.fault, message: decoded.message };
    }
    start = nl + 1;
    lineNo += 1;
  }
  const last = entries[entries.length - 1];
  const end = last ? last.offset + last.length : offset;
  const tail = firstBad && !corruption ? { ...firstBad, bytes: offset + bytes.length - firstBad.offset } : null;
  if (corruption) return { entries, end, tail: null, corruption };
  return { entries, end, tail, corruption: null };
}
