import { dirname } from 'node:path';
import type { Skillbook } from '@cohort/skillbook';
import type { ResolvedFileStoreOptions } from '../FileStoreOptions.ts';
import type { StoreFs } from '../StoreFs.ts';
import type { StoreNotice } from '../StoreNotice.ts';
import type { CommitSequencer } from './CommitSequencer.ts';
import { occurrenceId, utf8 } from './digest.ts';
import { encodeLine } from './JournalLine.ts';
import type { JournalLine } from './JournalLine.ts';
import type { Ledger } from './Ledger.ts';
import type { NoticeLog } from './NoticeLog.ts';
import type { SinceEntry } from './SinceEntry.ts';
import type { RecoveryCopies } from './RecoveryCopies.ts';
import type { StorePaths } from './StorePaths.ts';
import type { WriterLock } from './WriterLock.ts';

/** What the store knows of the files, as of its last look (under the lock). */
export interface DiskView {
  ledger: Ledger;
  /** The book at the ledger's revision (the base file's content). */
  baseBook: Skillbook;
  /** Commits in the journal past the ledger's revision. */
  since: SinceEntry[];
  /** Journal bytes read and checked. */
  journalEnd: number;
  journalLines: number;
  /** The hash chain at the head. */
  chain: string;
  /** The document's fingerprint when it last held the ledger's content (`null`: look again). */
  docFingerprint: string | null;
  /**
   * The previous document file this writer kept as `.replaced` when its checkpoint replaced it:
   * which file it is, and what it held (`null`: nothing to watch). Another writer's checkpoint
   * puts another file there, which ends the watch.
   */
  replaced: { readonly identity: string; readonly digest: string; /** Its fingerprint when last found unchanged. */ readonly seen?: string } | null;
}

/** Everything the file store's operations share. */
export interface StoreContext {
  readonly fs: StoreFs;
  readonly paths: StorePaths;
  readonly options: ResolvedFileStoreOptions;
  readonly sequencer: CommitSequencer;
  readonly notices: NoticeLog;
  readonly copies: RecoveryCopies;
  readonly lock: WriterLock;
  view: DiskView;
  /** I/O failures so far (each is its own occurrence). */
  failures: number;
}

/** Appends lines to the journal in one write and fsyncs it; returns the bytes written. */
export async function appendJournal(ctx: StoreContext, lines: readonly JournalLine[]): Promise<number> {
  const bytes = utf8(lines.map(encodeLine).join(''));
  const handle = await ctx.fs.openAppend(ctx.paths.journal);
  try {
    await handle.append(bytes);
    await handle.sync();
  } finally {
    await handle.close().catch(() => undefined);
  }
  return bytes.length;
}

/** Creates the journal if it does not exist, durably. */
export async function ensureJournal(ctx: StoreContext): Promise<void> {
  if (await ctx.fs.stat(ctx.paths.journal)) return;
  const handle = await ctx.fs.openAppend(ctx.paths.journal);
  await handle.sync();
  await handle.close();
  await ctx.fs.syncDir(dirname(ctx.paths.journal));
}

/** The fields every notice of this store carries. */
export function noticeBase(ctx: StoreContext, kind: string, ...key: readonly (string | number)[]): { id: string; at: number; document: string } {
  return { id: occurrenceId(kind, ctx.paths.document, ...key), at: ctx.options.clock.now(), document: ctx.paths.document };
}

/** Emits an `io_failed` notice. */
export async function reportIo(ctx: StoreContext, operation: string, file: string, error: unknown, refused: number, poisoned: boolean): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const notice: StoreNotice = {
    type: 'store.io_failed', ...noticeBase(ctx, 'io_failed', ctx.options.writerId, (ctx.failures += 1), operation, file, message),
    operation, file, message, refused, poisoned,
  };
  await ctx.notices.emit(notice);
}
