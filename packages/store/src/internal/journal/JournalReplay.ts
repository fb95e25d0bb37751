import type { Skillbook, SkillbookDraft } from '@cohort/skillbook';
import type { StoreOpenError } from '../../StoreOpenError.ts';
import type { IdLease } from '../../Store.ts';
import { chainDigest } from '../disk/digest.ts';
import { opsOfLine } from './JournalLine.ts';
import type { ExternalLine } from './JournalLine.ts';
import type { Ledger } from '../disk/Ledger.ts';
import type { JournalEntry } from './scanJournal.ts';
import { JournalSinceEntry } from './SinceEntry.ts';
import type { SinceEntry } from './SinceEntry.ts';

type Read<T> = { ok: true; value: T } | { ok: false; error: StoreOpenError };

/** What a replay of the journal past the ledger gives: the head book, the commits past the ledger, the chain at the head, the leases granted past it. */
export interface Replayed {
  readonly head: Skillbook;
  readonly since: SinceEntry[];
  readonly chain: string;
  readonly leases: readonly IdLease[];
  /**
   * The journal's last write, when it is an external change no ledger covers: a checkpoint
   * that was interrupted before its commit point. It is not in the head; the store cuts it
   * and looks at the document again.
   */
  readonly interrupted: { readonly offset: number; readonly bytes: number } | null;
}

/** The book an external record leaves: `book` with the record's change taken in at its revision. */
export function adoptExternal(book: Skillbook, line: ExternalLine): Skillbook {
  return book.adopt({ skills: line.skills, purged: line.purged, nextId: line.next }, { revision: line.rev });
}

/**
 * Replays journal records, one at a time as they are read, past the ledger's revision onto
 * the base book, checking order and the hash chain; the first fault stops it (later records
 * are ignored) and is its result. A commit's ops are replayed, an external change is adopted,
 * a lease is recorded (and the book's `next_id` moved past it). `journal` is the whole journal
 * the records were read from; the commits past the ledger keep only their place in its bytes
 * from the ledger's offset on ({@link JournalSinceEntry}), so a line's parsed form dies young —
 * and those bytes are a copy when the journal holds history before the ledger, so that the
 * history can be collected.
 */
export class JournalReplay {
  // one draft for the journal's commits: each is replayed into it, and the book is built once
  private head: SkillbookDraft;
  private chain: string;
  private readonly since: SinceEntry[] = [];
  private readonly leases: IdLease[] = [];
  /** An external record past the ledger, applied only once another record follows it (see `Replayed.interrupted`). */
  private pending: { readonly entry: JournalEntry; readonly line: ExternalLine } | null = null;
  private end = 0;
  private fault: Read<never> | null = null;
  /** The journal's bytes from the ledger's offset on. */
  private readonly bytes: Uint8Array;

  constructor(
    baseBook: Skillbook,
    private readonly ledger: Ledger,
    private readonly file: string,
    journal: Uint8Array,
  ) {
    this.head = baseBook.edit();
    this.chain = ledger.chain;
    // a copy of the part past the ledger lets the history before it be collected; not worth it for a little history
    this.bytes = ledger.journalOffset > journal.length / 4 ? journal.slice(ledger.journalOffset) : journal.subarray(ledger.journalOffset);
  }

  /** Replays one record (in journal order). */
  take(e: JournalEntry): void {
    if (this.fault || e.offset < this.ledger.journalOffset) return;
    this.end = e.offset + e.length;
    if (this.pending) {
      const { entry, line } = this.pending;
      this.pending = null;
      this.head = adoptExternal(this.head.finish(), line).edit();
      this.chain = chainDigest(this.chain, entry.body);
    }
    const line = e.line;
    const revision = this.head.revision;
    if (line.t === 'mark') {
      // a first-format mark was hashed into the ledger's chain with its checkpoint
      if (line.rev > revision) this.stop(e, `mark at revision ${line.rev} is past the book's revision ${revision}`);
      return;
    }
    const expected = line.t === 'lease' ? revision : line.t === 'external' ? line.rev : revision + 1;
    if (line.rev !== expected || line.rev < revision || line.prev !== this.chain) {
      this.stop(e, `${line.t} at revision ${line.rev} does not follow revision ${revision} (chain ${line.prev} ≠ ${this.chain})`);
      return;
    }
    if (line.t === 'lease') {
      this.head.reserveIds(line.to - 1);
      this.leases.push({ from: line.from, to: line.to });
    } else if (line.t === 'external') {
      this.pending = { entry: e, line };
      return;
    } else {
      const replayed = this.head.replay(opsOfLine(line));
      if (!replayed.ok) {
        this.stop(e, `commit at revision ${line.rev} does not replay: ${replayed.error.message}`);
        return;
      }
    }
    this.chain = chainDigest(this.chain, e.body);
    if (line.t !== 'commit') return;
    const start = e.offset - this.ledger.journalOffset;
    this.since.push(new JournalSinceEntry(line.rev, this.chain, this.bytes, start, start + e.length - 1));
  }

  private stop(e: JournalEntry, message: string): void {
    this.fault = {
      ok: false,
      error: { code: 'corrupt_journal', message, file: this.file, position: { offset: e.offset, line: e.lineNo } },
    };
  }

  /** The head book, the commits past the ledger, the chain at the head and the leases past it; or the first fault. */
  result(): Read<Replayed> {
    if (this.fault) return this.fault;
    const p = this.pending?.entry;
    const interrupted = p ? { offset: p.group, bytes: this.end - p.group } : null;
    return { ok: true, value: { head: this.head.finish(), since: this.since, chain: this.chain, leases: this.leases, interrupted } };
  }
}

/** Replays the journal's records past the ledger's revision onto the base book, checking order and the hash chain. */
export function replayJournal(
  baseBook: Skillbook,
  ledger: Ledger,
  entries: readonly JournalEntry[],
  file: string,
  journal: Uint8Array,
): Read<Replayed> {
  const replay = new JournalReplay(baseBook, ledger, file, journal);
  for (const e of entries) replay.take(e);
  return replay.result();
}
