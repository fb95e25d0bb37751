import type { HistoryOptions, HistoryPage, PersistedCommit } from '../../Store.ts';
import type { StoreFs } from '../../StoreFs.ts';
import { readOrigin } from './originFile.ts';
import { createdCommit, persistedCommit } from './persistedCommit.ts';
import { scanJournal } from './scanJournal.ts';
import type { StorePaths } from '../disk/StorePaths.ts';

/** A place to start reading: every record of the writes from `offset` on is past revision `after`. */
interface Mark {
  readonly after: number;
  readonly offset: number;
}

/** One mark per this many commits read. */
const MARK_EVERY = 256;

export const DEFAULT_HISTORY_LIMIT = 100;

/**
 * Reads the file store's history from its journal, a page at a time, without keeping it: the
 * journal is read from a known place and only the page is kept. The places — where the writes
 * past some revision start — are noted every {@link MARK_EVERY} commits as pages are read, so
 * a reader paging through a long journal does not start from its beginning every time. The
 * first change of a store created with content is its origin file (`originFile.ts`).
 */
export class HistoryReader {
  private readonly marks: Mark[] = [{ after: -1, offset: 0 }];
  /** The revision of the store's origin (`null`: created empty; `undefined`: not looked at yet). */
  private originRevision: number | null | undefined;

  constructor(
    private readonly fs: StoreFs,
    private readonly paths: StorePaths,
  ) {}

  /** The created commit when the page past `after` starts with it, `null` when it does not, or why it cannot be read. */
  private async origin(after: number): Promise<PersistedCommit | null | string> {
    if (this.originRevision === null || (this.originRevision !== undefined && this.originRevision <= after)) return null;
    const read = await readOrigin(this.fs, this.paths);
    if (!read.ok) return read.message;
    this.originRevision = read.origin?.book.revision ?? null;
    return read.origin && read.origin.book.revision > after ? createdCommit(read.origin.book, read.origin.writer, read.origin.at) : null;
  }

  /** The commits past `after` (at most `limit`) in the journal's first `end` bytes (its whole writes). */
  async page(end: number, options: HistoryOptions = {}): Promise<HistoryPage> {
    const after = options.after ?? -1;
    const limit = options.limit ?? DEFAULT_HISTORY_LIMIT;
    if (!Number.isInteger(after) || !Number.isSafeInteger(limit) || limit < 1) {
      return {
        ok: false,
        error: {
          code: 'invalid_request',
          message: `history: after must be an integer and limit a positive integer (got ${String(options.after)}, ${String(options.limit)})`,
        },
      };
    }
    const start = this.startFor(after);
    let bytes: Uint8Array | undefined;
    let origin: PersistedCommit | null | string;
    try {
      origin = await this.origin(after);
      bytes = await this.fs.readFrom(this.paths.journal, start.offset);
    } catch (error) {
      return {
        ok: false,
        error: { code: 'io', message: `history: the files could not be read: ${(error as Error).message}`, cause: error },
      };
    }
    if (typeof origin === 'string') return { ok: false, error: { code: 'io', message: `history: ${origin} (${this.paths.origin})` } };
    const commits: PersistedCommit[] = origin ? [origin] : [];
    let more = false;
    let counted = 0;
    let writeAt = start.offset;
    // the highest revision of the writes before `writeAt`: every record from there on is past it
    let seen = start.after;
    const scan = scanJournal((bytes ?? new Uint8Array(0)).subarray(0, Math.max(0, end - start.offset)), start.offset, 1, (entry) => {
      if (more) return;
      const commit = persistedCommit(entry.line);
      if (!commit) return;
      if (entry.group !== writeAt) {
        writeAt = entry.group;
        if (counted >= MARK_EVERY) {
          this.note({ after: seen, offset: writeAt });
          counted = 0;
        }
      }
      counted += 1;
      seen = Math.max(seen, commit.revision);
      if (commit.revision <= after) return;
      if (commits.length === limit) more = true;
      else commits.push(commit);
    });
    if (scan.corruption) {
      return {
        ok: false,
        error: {
          code: 'io',
          message: `history: the journal is damaged at line ${scan.corruption.lineNo} past byte ${start.offset}: ${scan.corruption.message}`,
        },
      };
    }
    return { ok: true, commits, next: more ? (commits[commits.length - 1]?.revision ?? null) : null };
  }

  /** The latest mark at or before `after`. */
  private startFor(after: number): Mark {
    let best = this.marks[0] ?? { after: -1, offset: 0 };
    for (const m of this.marks) if (m.after <= after && m.offset >= best.offset) best = m;
    return best;
  }

  private note(mark: Mark): void {
    const last = this.marks[this.marks.length - 1];
    if (!last || mark.offset > last.offset) this.marks.push(mark);
  }
}
