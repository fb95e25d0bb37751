import type { StoreError } from '../../Store.ts';
import { writeCheckpoint } from './checkpoint.ts';
import type { DiskView } from '../disk/DiskView.ts';
import type { StoreContext } from '../worker/StoreContext.ts';

/** A checkpoint's outcome: the view after it, or why it was not written. */
export type CheckpointOutcome = { readonly ok: true; readonly view: DiskView } | { readonly ok: false; readonly error: StoreError };

/** Why a checkpoint is written: enough journal past the document, a quiet store, or closing. */
export type CheckpointReason = 'threshold' | 'idle' | 'close';

/**
 * When the file store rewrites its document, and the rewrite itself (under the lock the
 * caller holds): after a group of appends once the journal past the document is long enough
 * ({@link Checkpointer.due}), after `idleCheckpointMs` without appends (the idle timer), and
 * on close.
 */
export class Checkpointer {
  private idleTimer: unknown = null;

  constructor(private readonly ctx: StoreContext) {}

  /**
   * Whether the journal past the document has reached `checkpointEvery` commits and grown to
   * `checkpointJournalRatio` of the document's size. A checkpoint rewrites the whole document,
   * so rewriting only once the journal has grown in proportion keeps its cost per journal byte
   * constant — on a large book a fixed count of commits would rewrite megabytes for every few
   * kilobytes appended.
   */
  async due(view: DiskView): Promise<boolean> {
    const { fs, paths, options } = this.ctx;
    if (view.since.length < options.checkpointEvery) return false;
    if (options.checkpointJournalRatio === 0) return true;
    const documentBytes = (await fs.stat(paths.document))?.size ?? 0;
    return view.journalEnd - view.ledger.journalOffset >= options.checkpointJournalRatio * documentBytes;
  }

  /** Whether the document lags behind the store: commits past it, or leases its `next_id` does not cover yet. */
  pending(view: DiskView): boolean {
    return view.since.length > 0 || view.docDigest !== undefined || this.ctx.sequencer.leaseRecord.through > view.ledger.leases.through;
  }

  /** Rewrites the document from the sequencer's book (the caller holds the lock), unless nothing is past it. */
  async write(view: DiskView, reason: CheckpointReason): Promise<CheckpointOutcome> {
    if (!this.pending(view)) return { ok: true, view };
    const written = await writeCheckpoint(this.ctx, view, {
      book: this.ctx.sequencer.book,
      reason,
      rewriteDocument: true,
      expectFingerprint: view.docFingerprint,
      expectDigest: view.docDigest ?? view.ledger.contentDigest,
    });
    return written.ok
      ? { ok: true, view: written.view }
      : { ok: false, error: { code: 'locked', message: `checkpoint skipped: ${written.reason}` } };
  }

  /** Starts (again) the idle timer: `fire` runs after `idleCheckpointMs` without another arm or disarm. */
  armIdle(fire: () => void): void {
    const { clock, idleCheckpointMs } = this.ctx.options;
    if (idleCheckpointMs === 0) return;
    this.disarmIdle();
    this.idleTimer = clock.setTimeout(() => {
      this.idleTimer = null;
      fire();
    }, idleCheckpointMs);
    (this.idleTimer as { unref?: () => void } | null)?.unref?.();
  }

  /** Stops the idle timer. */
  disarmIdle(): void {
    if (this.idleTimer !== null) this.ctx.options.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
