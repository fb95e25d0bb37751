import { checkLine, checksummed, decodeLine, isGroupHeader, parseBody } from './lineCodec.ts';
import type { RecordLine } from './JournalLine.ts';
import type { LineFault } from './lineCodec.ts';
import { fromUtf8 } from '../disk/digest.ts';

/** One good record of the journal (group headers are framing, not records), with where it is. */
export interface JournalEntry {
  readonly line: RecordLine;
  /** The exact JSON body the checksum and the chain cover. */
  readonly body: string;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Byte offset of the first byte of the write it is part of (its group's header, or the line itself in the first format). */
  readonly group: number;
  /** 1-based line number. */
  readonly lineNo: number;
  /** Byte length including the newline. */
  readonly length: number;
}

/** A bad spot in the journal. */
export interface JournalFault {
  readonly offset: number;
  readonly lineNo: number;
  readonly reason: LineFault | 'incomplete_line' | 'broken_group';
  readonly message: string;
}

/** What {@link scanJournal} found. */
export interface JournalScan {
  /** The good records, in order (empty when they were handed to a visitor instead). */
  readonly entries: readonly JournalEntry[];
  /** How many good lines there are (group headers included). */
  readonly lines: number;
  /** Bytes up to the end of the last whole write (absolute offset). */
  readonly end: number;
  /** Damage inside the last write (a torn write: cut it from its first byte), or `null`. */
  readonly tail: (JournalFault & { readonly bytes: number }) | null;
  /** Damage before the last write (corruption: stop), or `null`. */
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
 * The text of each line, in order. The whole journal is validated once and decoded in one go,
 * rather than line by line (bench row 5); a line's text is the same
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

/** A group whose header was read and whose lines are being collected. */
interface OpenGroup {
  readonly offset: number;
  readonly lineNo: number;
  readonly lines: number;
  /** The absolute offset its last line must end at. */
  readonly end: number;
  /** Its records checked so far, to be parsed once the write is known whole (parsed then, they die young). */
  readonly members: Member[];
  /** Its lines only checked (see `checkOnlyBefore`). */
  checked: number;
}

/** A record of an open group: its checksum is right, it is not parsed yet. */
interface Member {
  /** What the checksum covered (a slice of the journal's text and the closing brace, so keeping it costs little). */
  readonly body: string;
  readonly start: number;
  readonly nl: number;
  readonly lineNo: number;
}

/**
 * Splits journal bytes into checked records, by write: a group (a header, then exactly the
 * lines and bytes it announces) or a line of the first format. Only the last write can be torn
 * (a write that failed is cut off again before the next one, and a crash leaves at most the one
 * in flight): damage inside it is the torn tail of an interrupted append — cut from the first
 * byte of that write, so no part of an unacknowledged write survives. Damage that another write
 * follows (a whole one, or the header of one) is corruption, which no crash produces. `offset` and `firstLine` place
 * `bytes` within the file (for reading only what another writer appended).
 *
 * With `visit`, each good record is handed to it once its write is known whole, and not kept
 * (`entries` is empty): opening a store replays its journal this way, so that a line's text and
 * entry die young (bench row 5). Writes are still judged as a whole: a visitor learns of corruption only
 * from the result. Records before `checkOnlyBefore` (history the caller does not need) are only
 * checked against their checksums, not parsed, and are neither visited nor kept.
 */
export function scanJournal(
  bytes: Uint8Array,
  offset = 0,
  firstLine = 1,
  visit?: (entry: JournalEntry) => void,
  checkOnlyBefore = 0,
): JournalScan {
  const entries: JournalEntry[] = [];
  const take = visit ?? ((e: JournalEntry) => void entries.push(e));
  let good = 0;
  let end = offset;
  let firstBad: JournalFault | null = null;
  let corruption: JournalFault | null = null;
  let group: OpenGroup | null = null;
  let start = 0;
  let lineNo = firstLine;
  const lines = new LineTexts(bytes);
  /** A whole write ends at `at`: damage before it is corruption. */
  const whole = (at: number, count: number): void => {
    if (firstBad) corruption ??= firstBad;
    firstBad = null;
    good += count;
    end = at;
  };
  /** After a line of the open group: the group is whole, or broken, or still open. */
  const closeGroup = (lineEnd: number, at: number, atLine: number): void => {
    const open = group;
    if (!open) return;
    const count = open.members.length + open.checked;
    if (count < open.lines && lineEnd < open.end) return;
    if (count !== open.lines || lineEnd !== open.end) {
      broken({
        offset: at,
        lineNo: atLine,
        reason: 'invalid_line',
        message: `the write announced ${open.lines} lines and ${open.end - open.offset} bytes`,
      });
      return;
    }
    group = null;
    whole(lineEnd, open.lines + 1);
    for (const m of open.members) {
      const parsed = parseBody(m.body);
      // a line whose checksum is right but that is no record was never written by a crash: corruption
      if (!parsed.ok || parsed.line.t === 'group') {
        corruption ??= {
          offset: offset + m.start,
          lineNo: m.lineNo,
          reason: 'invalid_line',
          message: parsed.ok ? 'a group header inside a group' : parsed.message,
        };
        return;
      }
      take({
        line: parsed.line,
        body: parsed.body,
        offset: offset + m.start,
        group: open.offset,
        lineNo: m.lineNo,
        length: m.nl + 1 - m.start,
      });
    }
  };
  const broken = (fault: JournalFault): void => {
    // damage inside a group breaks the whole group: it counts from the group's header
    firstBad ??= group
      ? {
          offset: group.offset,
          lineNo: group.lineNo,
          reason: 'broken_group',
          message: `the write at line ${group.lineNo} is not whole: ${fault.message}`,
        }
      : fault;
    group = null;
  };
  while (start < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, start);
    const at = offset + start;
    if (nl < 0) {
      broken({ offset: at, lineNo, reason: 'incomplete_line', message: 'the last line has no newline' });
      break;
    }
    const text = lines.next(start, nl);
    const lineEnd = offset + nl + 1;
    const checked = text !== null && at < checkOnlyBefore ? checkLine(text) : null;
    if (checked?.ok && !checked.header) {
      // history the caller does not need: checked, counted, not parsed
      if (group) {
        group.checked += 1;
        closeGroup(lineEnd, at, lineNo);
      } else if (checked.firstFormat) whole(lineEnd, 1);
      else broken({ offset: at, lineNo, reason: 'invalid_line', message: 'a record outside a write' });
      start = nl + 1;
      lineNo += 1;
      continue;
    }
    // a header where a record was due: the open write is not whole, and another starts here
    if (group && text !== null && isGroupHeader(text))
      broken({ offset: at, lineNo, reason: 'invalid_line', message: 'a write began before the one before it ended' });
    if (group && text !== null) {
      // a record of an open write: its checksum now, its parse once the write is whole
      const sum = checksummed(text);
      if (sum.ok) {
        group.members.push({ body: sum.body, start, nl, lineNo });
        closeGroup(lineEnd, at, lineNo);
      } else broken({ offset: at, lineNo, reason: sum.fault, message: sum.message });
      start = nl + 1;
      lineNo += 1;
      continue;
    }
    const decoded = text === null ? ({ ok: false, fault: 'invalid_line', message: 'not UTF-8' } as const) : decodeLine(text);
    if (!decoded.ok) {
      broken({ offset: at, lineNo, reason: decoded.fault, message: decoded.message });
    } else if (decoded.line.t === 'group') {
      // another write starts after the damage: the damaged one was not the last write, and only the last can be torn
      if (firstBad) corruption ??= firstBad;
      group = { offset: at, lineNo, lines: decoded.line.lines, end: lineEnd + decoded.line.bytes, members: [], checked: 0 };
    } else if (decoded.line.v === 1) {
      whole(lineEnd, 1);
      take({ line: decoded.line, body: decoded.body, offset: at, group: at, lineNo, length: nl + 1 - start });
    } else {
      broken({ offset: at, lineNo, reason: 'invalid_line', message: 'a record outside a write' });
    }
    start = nl + 1;
    lineNo += 1;
  }
  if (group) broken({ offset: offset + bytes.length, lineNo, reason: 'incomplete_line', message: 'the journal ends inside it' });
  const tail =
    firstBad && !corruption ? { ...(firstBad as JournalFault), bytes: offset + bytes.length - (firstBad as JournalFault).offset } : null;
  if (corruption) return { entries, lines: good, end, tail: null, corruption };
  return { entries, lines: good, end, tail, corruption: null };
}
