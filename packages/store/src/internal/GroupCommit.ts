import type { AppendResult, CommitRecord, StoreError } from '../Store.ts';
import { CheckpointIncomplete, retireReplaced, writeCheckpoint } from './checkpoint.ts';
import { chainDigest } from './digest.ts';
import { lineBody } from './JournalLine.ts';
import type { CommitLine } from './JournalLine.ts';
import type { SinceEntry } from './SinceEntry.ts';
import { writtenEntry } from './SinceEntry.ts';
import { ResyncWindow } from './ResyncWindow.ts';
import { appendJournal, noticeBase, reportIo } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';
import { syncWithDisk } from './syncWithDisk.ts';

interface Pending {
  readonly commit: CommitRecord;
  readonly resolve: (result: AppendResult) => void;
}

type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: StoreError };

const closedError: StoreError = { code: 'closed', message: 'the store is closed' };

/**
 * The file store's one worker: everything that touches the files runs here, one task at a
 * time, under the writer lock. Appends queue up while a task runs and are written together
 * by the next one (group commit: one journal write and one fsync for all of them), each
 * resolved only after its own bytes are durable. Also runs the idle, threshold and closing
 * checkpoints.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private work: Promise<void> = Promise.resolve();
  private closing: Promise<void> | null = null;
  private poisoned: StoreError | null = null;
  private idleTimer: unknown = null;
  private readonly resync: ResyncWindow;

  constructor(private readonly ctx: StoreContext) {
    this.resync = new ResyncWindow(ctx.options.clock, ctx.sequencer);
  }

  /** Queues an append for the next group. */
  submit(commit: CommitRecord): Promise<AppendResult> {
    if (this.closing) return Promise.resolve({ ok: false, error: closedError });
    if (this.poisoned) return Promise.resolve({ ok: false, error: this.poisoned });
    this.resync.opened();
    const result = new Promise<AppendResult>((resolve) => {
      this.queue.push({ commit, resolve });
      if (this.scheduled) return;
      this.scheduled = true;
      void this.run(() => {
        this.scheduled = false;
        return this.flush(this.queue.splice(0));
      });
    });
    void result.then(() => this.resync.settled());
    return result;
  }

  /** Catches up with the files (for `load`). */
  refresh(): Promise<void> {
    return this.run(async () => {
      if (this.closing) return;
      await this.locked(() => syncWithDisk(this.ctx), 0).catch(() => undefined);
    });
  }

  /** Rewrites the document now. */
  checkpoint(reason: 'idle' | 'close'): Promise<Outcome> {
    return this.run(() => this.checkpointTask(reason, this.ctx.options.lockWaitMs));
  }

  /** Waits for queued appends, writes the final checkpoint, releases the lock, completes the notices. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.disarmIdle();
      this.resync.dispose();
      await this.run(() => this.checkpointTask('close', this.ctx.options.lockWaitMs).then(() => undefined));
      this.ctx.notices.complete();
    })();
    return this.closing;
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.work.then(task);
    this.work = next.then(() => undefined, () => undefined);
    return next;
  }

  /** Runs `body` under the writer lock; a lock it cannot get is a `locked` refusal. */
  private async locked<T extends Outcome>(body: () => Promise<T>, waitMs = this.ctx.options.lockWaitMs): Promise<T | Outcome> {
    const attempt = await this.ctx.lock.acquire(waitMs);
    if (!attempt.ok) return { ok: false, error: { code: 'locked', message: attempt.message, ...(attempt.holder ? { holder: attempt.holder } : {}) } };
    if (attempt.takeover) {
      const { previous, reason } = attempt.takeover;
      await this.ctx.notices.emit({
        type: 'store.lock_taken_over', ...noticeBase(this.ctx, 'lock_taken_over', previous.writerId, previous.generation),
        lockFile: this.ctx.paths.lock, previous, generation: previous.generation + 1, reason,
      });
    }
    try {
      return await body();
    } finally {
      await this.ctx.lock.release().catch(() => undefined);
    }
  }

  private async flush(group: Pending[]): Promise<void> {
    this.disarmIdle();
    const settled = new Set<Pending>();
    const settle = (p: Pending, result: AppendResult): void => {
      if (settled.has(p)) return;
      settled.add(p);
      p.resolve(result);
    };
    try {
      if (this.poisoned) throw this.poisoned;
      const outcome = await this.locked(() => this.write(group, settle));
      if (!outcome.ok) for (const p of group) settle(p, outcome);
    } catch (thrown) {
      const error = await this.fail('append', thrown, group.length - settled.size);
      for (const p of group) settle(p, { ok: false, error });
    }
    this.armIdle();
  }

  /** One group, under the lock: catch up, decide each append, write their lines with one fsync, acknowledge. */
  private async write(group: readonly Pending[], settle: (p: Pending, r: AppendResult) => void): Promise<Outcome> {
    const ctx = this.ctx;
    const synced = await syncWithDisk(ctx);
    if (!synced.ok) {
      if (synced.poison) this.poisoned = synced.error;
      await reportIo(ctx, 'sync', ctx.paths.journal, synced.error.message, group.length, synced.poison);
      return synced;
    }
    const before = ctx.sequencer.state;
    let chain = ctx.view.chain;
    const lines: CommitLine[] = [];
    const since: SinceEntry[] = [];
    const results = group.map((p): AppendResult => {
      const decided = ctx.sequencer.apply(p.commit);
      if (!decided.ok) return decided;
      const line: CommitLine = {
        v: 1, t: 'commit', rev: decided.book.revision, prev: chain, writer: ctx.options.writerId,
        session: p.commit.sessionId, path: [...p.commit.path], ops: [...decided.ops], at: p.commit.at,
      };
      chain = chainDigest(chain, lineBody(line));
      lines.push(line);
      since.push(writtenEntry(line, chain));
      const remapped = Object.keys(decided.idMap).length > 0;
      return { ok: true, revision: decided.book.revision, book: decided.book, ...(remapped ? { idMap: decided.idMap } : {}) };
    });
    if (lines.length > 0) {
      const stillOurs = await ctx.lock.verify();
      const written = stillOurs ? await this.appendOrRollBack(lines, group.length) : null;
      if (written === null) {
        ctx.sequencer.restore(before);
        const error: StoreError = stillOurs
          ? (this.poisoned ?? { code: 'io', message: 'the journal write failed; nothing of this group was kept' })
          : { code: 'locked', message: 'another writer took the lock over during the write' };
        group.forEach((p, i) => settle(p, results[i]?.ok ? { ok: false, error } : (results[i] as AppendResult)));
        return { ok: true };
      }
      const view = ctx.view;
      ctx.view = { ...view, journalEnd: view.journalEnd + written, journalLines: view.journalLines + lines.length, chain, since: [...view.since, ...since] };
    }
    await this.reportRemaps(group, results);
    group.forEach((p, i) => settle(p, results[i] as AppendResult));
    if (ctx.view.since.length >= ctx.options.checkpointEvery && (await this.journalOutweighsDocument())) await this.checkpointLocked('threshold');
    return { ok: true };
  }

  /**
   * Whether the journal past the document has grown to `checkpointJournalRatio` of the
   * document's size. A checkpoint rewrites the whole document, so rewriting only once the
   * journal has grown in proportion keeps its cost per journal byte constant — on a large book
   * a fixed count of commits would rewrite megabytes for every few kilobytes appended.
   */
  private async journalOutweighsDocument(): Promise<boolean> {
    const { fs, paths, options, view } = this.ctx;
    if (options.checkpointJournalRatio === 0) return true;
    const documentBytes = (await fs.stat(paths.document))?.size ?? 0;
    return view.journalEnd - view.ledger.journalOffset >= options.checkpointJournalRatio * documentBytes;
  }

  /** Appends and fsyncs the group's lines; on failure cuts them off again (or poisons the store when even that fails). */
  private async appendOrRollBack(lines: readonly CommitLine[], refused: number): Promise<number | null> {
    const ctx = this.ctx;
    const end = ctx.view.journalEnd;
    try {
      return await appendJournal(ctx, lines);
    } catch (error) {
      try {
        await ctx.fs.truncate(ctx.paths.journal, end);
        await reportIo(ctx, 'journal append', ctx.paths.journal, error, refused, false);
      } catch (cutError) {
        this.poisoned = { code: 'io', message: `the journal write failed and could not be undone: reopen the store`, cause: cutError };
        await reportIo(ctx, 'journal append', ctx.paths.journal, error, refused, true).catch(() => undefined);
      }
      return null;
    }
  }

  private async reportRemaps(group: readonly Pending[], results: readonly AppendResult[]): Promise<void> {
    for (const [i, p] of group.entries()) {
      const r = results[i];
      if (!r?.ok || !r.idMap) continue;
      await this.ctx.notices.emit({
        type: 'store.ids_remapped', ...noticeBase(this.ctx, 'ids_remapped', p.commit.sessionId, r.revision),
        sessionId: p.commit.sessionId, path: [...p.commit.path], revision: r.revision, idMap: { ...r.idMap },
      });
    }
  }

  /** Rewrites the document (under the lock), unless nothing is past it. */
  private async checkpointLocked(reason: 'threshold' | 'idle' | 'close'): Promise<Outcome> {
    const ctx = this.ctx;
    if (ctx.view.since.length === 0) return { ok: true };
    try {
      const written = await writeCheckpoint(ctx, {
        book: ctx.sequencer.book, reason, rewriteDocument: true,
        expectFingerprint: ctx.view.docFingerprint, expectDigest: ctx.view.ledger.contentDigest,
      });
      return written.ok ? { ok: true } : { ok: false, error: { code: 'locked', message: `checkpoint skipped: ${written.reason}` } };
    } catch (thrown) {
      return { ok: false, error: await this.fail('checkpoint', thrown, 0) };
    }
  }

  private async checkpointTask(reason: 'idle' | 'close', waitMs: number): Promise<Outcome> {
    if (this.poisoned) return { ok: false, error: this.poisoned };
    try {
      return await this.locked(async () => {
        const synced = await syncWithDisk(this.ctx);
        if (!synced.ok) return synced;
        const saved = await this.checkpointLocked(reason);
        if (reason === 'close' && saved.ok) await retireReplaced(this.ctx);
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
    const ms = this.ctx.options.idleCheckpointMs;
    if (ms === 0 || this.closing) return;
    this.disarmIdle();
    const clock = this.ctx.options.clock;
    this.idleTimer = clock.setTimeout(() => {
      this.idleTimer = null;
      if (this.closing || this.queue.length > 0 || this.ctx.view.since.length === 0) return;
      void this.run(() => this.checkpointTask('idle', 0)).then((r) => {
        if (!r.ok && r.error.code === 'locked') this.armIdle();
      });
    }, ms);
    (this.idleTimer as { unref?: () => void } | null)?.unref?.();
  }

  private disarmIdle(): void {
    if (this.idleTimer !== null) this.ctx.options.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
