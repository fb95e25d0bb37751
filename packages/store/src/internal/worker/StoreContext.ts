import { dirname } from 'node:path';
import type { ResolvedFileStoreOptions } from '../../FileStoreOptions.ts';
import type { StoreFs } from '../../StoreFs.ts';
import type { StoreNotice } from '../../StoreNotice.ts';
import type { CommitSequencer } from '../sequencing/CommitSequencer.ts';
import { occurrenceId, utf8 } from '../disk/digest.ts';
import { encodeLine } from '../journal/lineCodec.ts';
import type { RecordLine } from '../journal/JournalLine.ts';
import type { NoticeLog } from '../disk/NoticeLog.ts';
import type { RecoveryCopies } from '../disk/RecoveryCopies.ts';
import type { BaseVersions } from '../external/BaseVersions.ts';
import type { RenumberMemory } from '../external/RenumberMemory.ts';
import type { StoreSeams } from '../external/StoreSeams.ts';
import type { StorePaths } from '../disk/StorePaths.ts';
import type { WriterLock } from '../disk/WriterLock.ts';
import type { DiskView } from '../disk/DiskView.ts';

/**
 * Everything the file store's operations share: the files, the options, the sequencer that
 * decides appends, the notices, the recovery copies and the lock. What the store knows of the
 * files is not here: it is a {@link DiskView} that each step takes and returns.
 */
export interface StoreContext {
  readonly fs: StoreFs;
  readonly paths: StorePaths;
  readonly options: ResolvedFileStoreOptions;
  readonly sequencer: CommitSequencer;
  readonly notices: NoticeLog;
  readonly copies: RecoveryCopies;
  readonly lock: WriterLock;
  /** The versions of the document another writer's save may have started from. */
  readonly versions: BaseVersions;
  /** The other writers' skills renumbered so far. */
  readonly renumbered: RenumberMemory;
  /** What a broken variant replaces (the real functions otherwise). */
  readonly seams: StoreSeams;
  /** I/O failures so far (each is its own occurrence). */
  failures: number;
}

/** The bytes of one write of `records`: its group header, then each record (see `JournalLine.ts`). */
export function encodeGroup(records: readonly RecordLine[]): Uint8Array {
  const body = utf8(records.map(encodeLine).join(''));
  const header = utf8(encodeLine({ v: 2, t: 'group', lines: records.length, bytes: body.length }));
  const bytes = new Uint8Array(header.length + body.length);
  bytes.set(header, 0);
  bytes.set(body, header.length);
  return bytes;
}

/** Appends records to the journal as one write (a group) and fsyncs it; returns the bytes written. */
export async function appendJournal(ctx: StoreContext, records: readonly RecordLine[]): Promise<number> {
  const bytes = encodeGroup(records);
  const handle = await ctx.fs.openAppend(ctx.paths.journal);
  try {
    await handle.append(bytes);
    await handle.sync();
  } finally {
    await handle.close().catch(() => undefined);
  }
  return bytes.length;
}

/**
 * Makes what the journal holds durable: the last group a crashed writer wrote may not have
 * been synced yet, and what a store takes up at open must not vanish at a power failure after.
 */
export async function syncJournal(ctx: StoreContext): Promise<void> {
  const handle = await ctx.fs.openAppend(ctx.paths.journal);
  try {
    await handle.sync();
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Creates the journal if it does not exist, durably. */
export async function ensureJournal(ctx: StoreContext): Promise<void> {
  if (await ctx.fs.stat(ctx.paths.journal)) return;
  await syncJournal(ctx);
  await ctx.fs.syncDir(dirname(ctx.paths.journal));
}

/** The fields every notice of this store carries. */
export function noticeBase(
  ctx: StoreContext,
  kind: string,
  ...key: readonly (string | number)[]
): { id: string; at: number; document: string } {
  return { id: occurrenceId(kind, ctx.paths.document, ...key), at: ctx.options.clock.now(), document: ctx.paths.document };
}

/** Emits an `io_failed` notice. */
export async function reportIo(
  ctx: StoreContext,
  operation: string,
  file: string,
  error: unknown,
  refused: number,
  poisoned: boolean,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const notice: StoreNotice = {
    type: 'store.io_failed',
    ...noticeBase(ctx, 'io_failed', ctx.options.writerId, (ctx.failures += 1), operation, file, message),
    operation,
    file,
    message,
    refused,
    poisoned,
  };
  await ctx.notices.emit(notice);
}
