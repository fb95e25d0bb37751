import { hostname } from 'node:os';
import type { Skillbook } from '@cohort/skillbook';
import { z } from 'zod';
import { nodeFs } from './nodeFs.ts';
import type { StoreClock } from './StoreClock.ts';
import type { StoreFs } from './StoreFs.ts';
import type { ProcessIdentity } from './internal/disk/WriterLock.ts';
import { isProcessAlive } from './internal/disk/WriterLock.ts';
import { resolveSharedOptions } from './internal/resolveSharedOptions.ts';
import type { ResolvedSharedOptions } from './internal/resolveSharedOptions.ts';

/** Options of {@link FileStore.open}; every one has a default. */
export interface FileStoreOptions {
  /** The file system (default: {@link nodeFs}; tests and the simulation pass a {@link SimFs} mount). */
  readonly fs?: StoreFs;
  /** Time and timers (default: the system clock). */
  readonly clock?: StoreClock;
  /**
   * This writer's id, in the lock, the ledger, journal lines and the fixed-point copy's name
   * (default: random per open). Give a long-lived deployment a stable one, so its
   * fixed-point copy stays one file across restarts.
   */
  readonly writerId?: string;
  /** Rewrite the document once this many commits are in the journal past it (default 256)… */
  readonly checkpointEvery?: number;
  /**
   * …and the journal past it has grown to this fraction of the document's size (default 0.5;
   * 0: the count alone decides). Keeps a checkpoint's cost — rewriting the whole document —
   * in proportion to what was appended since the last one.
   */
  readonly checkpointJournalRatio?: number;
  /** Rewrite the document after this long without appends, in ms (default 1,000; 0: never when idle). */
  readonly idleCheckpointMs?: number;
  /** How long a writer lock lasts before it is considered stale, in ms (default 30,000). */
  readonly lockLeaseMs?: number;
  /** How long to wait for another writer's lock before refusing with code `locked`, in ms (default 10,000). */
  readonly lockWaitMs?: number;
  /** The book of a document that does not exist yet (default: empty). */
  readonly initialBook?: Skillbook;
  /** Create the document when it does not exist (default true). */
  readonly create?: boolean;
  /** This process, for the lock file (default: the real pid and host name). */
  readonly process?: ProcessIdentity;
  /**
   * The permission bits of every file the store creates — the document, its side files,
   * temporary files, recovery copies (`0o600`: the owner alone) — less the process's umask.
   * Default: the document's own mode when it exists (a checkpoint keeps what you set with
   * `chmod`), else `0o644`. A directory the store creates gets the matching mode (`0o700` for
   * `0o600`); an existing directory's permissions are never changed.
   */
  readonly fileMode?: number;
}

/** {@link FileStoreOptions} with every default filled in. */
export interface ResolvedFileStoreOptions extends ResolvedSharedOptions {
  readonly fs: StoreFs;
  readonly checkpointEvery: number;
  readonly checkpointJournalRatio: number;
  readonly idleCheckpointMs: number;
  readonly lockLeaseMs: number;
  readonly lockWaitMs: number;
  readonly process: ProcessIdentity;
  /** `null`: the document's own mode, else `0o644` (decided when the document is found). */
  readonly fileMode: number | null;
}

/** The numeric options, as they must be when given. */
const NumericOptionsSchema = z.object({
  checkpointEvery: z.number().int().positive().optional(),
  checkpointJournalRatio: z.number().nonnegative().finite().optional(),
  idleCheckpointMs: z.number().nonnegative().finite().optional(),
  lockLeaseMs: z.number().positive().finite().optional(),
  lockWaitMs: z.number().nonnegative().finite().optional(),
  fileMode: z.number().int().min(0).max(0o777, 'permission bits only (at most 0o777)').optional(),
});

/** Why `options` cannot be used (one line per bad option), or `null`. */
export function checkFileStoreOptions(options: FileStoreOptions): string | null {
  const checked = NumericOptionsSchema.safeParse(options);
  return checked.success ? null : checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/** Fills in the defaults of {@link FileStoreOptions}. */
export function resolveFileStoreOptions(options: FileStoreOptions): ResolvedFileStoreOptions {
  return {
    ...resolveSharedOptions(options, 'w'),
    fs: options.fs ?? nodeFs,
    checkpointEvery: options.checkpointEvery ?? 256,
    checkpointJournalRatio: options.checkpointJournalRatio ?? 0.5,
    idleCheckpointMs: options.idleCheckpointMs ?? 1_000,
    lockLeaseMs: options.lockLeaseMs ?? 30_000,
    lockWaitMs: options.lockWaitMs ?? 10_000,
    process: options.process ?? { pid: process.pid, host: hostname(), isAlive: isProcessAlive },
    fileMode: options.fileMode ?? null,
  };
}
