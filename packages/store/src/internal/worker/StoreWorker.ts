import type { AppendResult, CommitRecord, LeaseResult, StoreError } from '../../Store.ts';
import type { LockAttempt } from '../disk/WriterLock.ts';
import { appendGroup } from './appendGroup.ts';
import { CheckpointIncomplete } from '../checkpoint/checkpoint.ts';
import { Checkpointer } from '../checkpoint/Checkpointer.ts';
import type { CheckpointOutcome } from '../checkpoint/Checkpointer.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { retireReplaced } from '../checkpoint/replacedFile.ts';
import { GroupCommitQueue, itemRefusal } from '../sequencing/GroupCommitQueue.ts';
import type { QueuedItem } from '../sequencing/GroupCommitQueue.ts';
import { ResyncWindow } from '../sequencing/ResyncWindow.ts';
import { noticeBase, reportIo } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';
import { syncWithDisk } from './syncWithDisk.ts';

type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: StoreError };

/** The refusal of an append to a closed store (a fresh value per append: results are handed to callers). */
const closedError = (): StoreError => ({ code: 'closed', message: 'the store is closed' });

/**
 * The file store's one worker: everything that touches the files runs here, one task at a
 * time, under the writer lock, and the worker alone keeps the current {@link DiskView}.
 * Appends queue up while a task runs and are written together by the next one (a
 * {@link GroupCommitQueue}: one journal write and one fsync for all of them), each resolved
 * only after its own bytes are durable. Checkpoints (threshold, idle, close) run here too, through the
 * {@link Checkpointer}.
 */
export class StoreWorker {
  private readonly queue = new GroupCommitQueue((group) => this.flush(group));
  private closing: Promise<void> | null = null;
  private poisoned: StoreError | null = null;
  private readonly resync: ResyncWindow;
  private readonly checkpointer: Checkpointer;

  constructor(
    private readonly ctx: StoreContext,
    private view: DiskView,
  ) {
    this.resync = new ResyncWindow(ctx.options.clock, ctx.sequencer);
    this.checkpointer = new Checkpointer(ctx);
  }

  /** Queues an append for the next group. */
  submit(commit: CommitRecord): Promise<AppendResult> {
    const refused = this.refused();
    return refused ? Promise.resolve({ ok: false, error: refused }) : this.resync.watch(() => this.queue.append(commit));
  }

  /** Queues a lease of `count` ids for the next group (its record shares the group's fsync). */
  lease(count: number): Promise<LeaseResult> {
    const refused = this.refused();
    return refused ? Promise.resolve({ ok: false, error: refused }) : this.resync.watch(() => this.queue.lease(count));
  }

  /** Why an append or a lease is refused before it is queued: the store is closing, or poisoned. */
  private refused(): StoreError | null {
    return this.closing ? closedError() : this.poisoned;
  }

  /** Catches up with the files (for `load`); a failure is reported, and the book stays as it was. */
  refresh(): Promise<void> {
    return this.run(async () => {
      if (this.closing) return;
      await this.locked(() => this.sync(), 0).catch((thrown: unknown) => this.fail('sync', thrown, 0));
    });
  }

  /** Rewrites the document now. */
  checkpoint(reason: 'idle' | 'close'): Promise<Outcome> {
    return this.run(() => this.checkpointTask(reason, this.ctx.options.lockWaitMs));
  }

  /** Waits for queued appends, writes the final checkpoint, releases the lock, completes the notices. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.checkpointer.disarmIdle();
      this.resync.dispose();
      await this.run(() => this.checkpointTask('close', this.ctx.options.lockWaitMs).then(() => undefined));
      this.ctx.notices.complete();
    })();
    return this.closing;
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /**
   * Runs `body` under the writer lock; a lock it cannot get is a `locked` refusal, and one it
   * cannot even write (a full or failing disk) an `io` refusal: nothing was written, so the
   * store goes on and the next task tries again.
   */
  private async locked<T extends Outcome>(body: () => Promise<T>, waitMs = this.ctx.options.lockWaitMs, refused = 0): Promise<T | Outcome> {
    let attempt: LockAttempt;
    try {
      attempt = await this.ctx.lock.acquire(waitMs);
    } catch (thrown) {
      await reportIo(this.ctx, 'lock', this.ctx.paths.lock, thrown, refused, false).catch(() => undefined);
      return {
        ok: false,
        error: {
          code: 'io',
          message: `the writer lock could not be written: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
          cause: thrown,
        },
      };
    }
    if (!attempt.ok)
      return { ok: false, error: { code: 'locked', message: attempt.message, ...(attempt.holder ? { holder: attempt.holder } : {}) } };
    if (attempt.takeover) {
      const { previous, reason } = attempt.takeover;
      await this.ctx.notices.emit({
        type: 'store.lock_taken_over',
        ...noticeBase(this.ctx, 'lock_taken_over', previous.writerId, previous.generation),
        lockFile: this.ctx.paths.lock,
        previous,
        generation: previous.generation + 1,
        reason,
      });
    }
    try {
      return await body();
    } finally {
      await this.ctx.lock.release().catch(() => undefined);
    }
  }

  /** Catches up with the files (under the lock); a failure that leaves the files unknown poisons the store. */
  private async sync(): Promise<Outcome> {
    const synced = await syncWithDisk(this.ctx, this.view);
    if (!synced.ok) return synced;
    this.view = synced.view;
    return { ok: true };
  }

  private async flush(group: readonly QueuedItem[]): Promise<void> {
    this.checkpointer.disarmIdle();
    try {
      if (this.poisoned) throw this.poisoned;
      const outcome = await this.locked(() => this.write(group), this.ctx.options.lockWaitMs, group.length);
      if (!outcome.ok) for (const q of group) q.answer(itemRefusal(q.item.kind, outcome.error));
    } catch (thrown) {
      const error = await this.fail('append', thrown, group.filter((q) => !q.answered).length);
      for (const q of group) q.answer(itemRefusal(q.item.kind, error));
    }
    this.armIdle();
  }

  /** One group, under the lock: catch up, decide and write the appends, acknowledge, checkpoint if due. */
  private async write(group: readonly QueuedItem[]): Promise<Outcome> {
    const ctx = this.ctx;
    const synced = await syncWithDisk(ctx, this.view);
    if (!synced.ok) {
      if (synced.poison) this.poisoned = synced.error;
      await reportIo(ctx, 'sync', ctx.paths.journal, synced.error.message, group.length, synced.poison);
      return synced;
    }
    const written = await appendGroup(
      ctx,
      synced.view,
      group.map((q) => q.item),
    );
    this.view = written.view;
    if (written.poisoned) this.poisoned = written.poisoned;
    group.forEach((q, i) => {
      const result = written.results[i];
      if (result) q.answer(result);
    });
    if (!written.failed && (await this.checkpointer.due(this.view))) await this.checkpointLocked('threshold');
    return { ok: true };
  }

  /** Rewrites the document (under the lock), unless nothing is past it. */
  private async checkpointLocked(reason: 'threshold' | 'idle' | 'close'): Promise<Outcome> {
    try {
      return this.adopt(await this.checkpointer.write(this.view, reason));
    } catch (thrown) {
      return { ok: false, error: await this.fail('checkpoint', thrown, 0) };
    }
  }

  private adopt(outcome: CheckpointOutcome): Outcome {
    if (!outcome.ok) return outcome;
    this.view = outcome.view;
    return { ok: true };
  }

  private async checkpointTask(reason: 'idle' | 'close', waitMs: number): Promise<Outcome> {
    if (this.poisoned) return { ok: false, error: this.poisoned };
    try {
      return await this.locked(async () => {
        const synced = await this.sync();
        if (!synced.ok) return synced;
        const saved = await this.checkpointLocked(reason);
        if (reason === 'close' && saved.ok) this.view = await retireReplaced(this.ctx, this.view);
        return saved;
      }, waitMs);
    } catch (thrown) {
      return { ok: false, error: await this.fail(reason, thrown, 0) };
    }
  }

  /** An unexpected failure: reported; one past a checkpoint's commit point, or of unknown extent, poisons the store. */
  private async fail(operation: string, thrown: unknown, refused: number): Promise<StoreError> {
    if (thrown === this.poisoned && this.poisoned) return this.poisoned;
    const poison = operation === 'append' || thrown instanceof CheckpointIncomplete;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const error: StoreError = { code: 'io', message: `${operation} failed: ${message}`, cause: thrown };
    if (poison) this.poisoned = { ...error, message: `${error.message}; the store refuses appends until it is reopened` };
    await reportIo(this.ctx, operation, this.ctx.paths.document, thrown, refused, poison).catch(() => undefined);
    return poison ? (this.poisoned ?? error) : error;
  }

  private armIdle(): void {
    if (this.closing) return;
    this.checkpointer.armIdle(() => {
      if (this.closing || this.queue.waiting > 0 || !this.checkpointer.pending(this.view)) return;
      void this.run(() => this.checkpointTask('idle', 0)).then((r) => {
        if (!r.ok && r.error.code === 'locked') this.armIdle();
      });
    });
  }
}
