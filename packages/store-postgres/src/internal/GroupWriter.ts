import type { PoolClient } from 'pg';
import type { AppendResult, CommitRecord, LeaseResult, StoreError } from '@cohort/store';
import { sleepOn } from '@cohort/store';
import { GroupCommitQueue, itemRefusal } from '@cohort/store/adapter';
import type { GroupItem, ItemResult, QueuedItem } from '@cohort/store/adapter';
import { catchUp, readHeadFrom } from './catchUp.ts';
import type { CaughtUp } from './catchUp.ts';
import { messageOf } from './Database.ts';
import { decideGroup } from './decideGroup.ts';
import type { DecidedGroup } from './decideGroup.ts';
import { grantLease, withLiterals, writeGroupRows } from './groupSql.ts';
import { inSchema } from './migrations.ts';
import { readBookRow } from './readBook.ts';
import type { StoreState } from './StoreState.ts';

/** Where a group's transaction failed: before `COMMIT` was sent (nothing was kept), or at it (unknown until looked up). */
type Failure = { readonly phase: 'before' | 'commit'; readonly error: unknown };

/** A point the sequencer and the lease position can go back to. */
type Restore = { readonly state: StoreState['sequencer']['state']; readonly leaseNumber: number };

/** The outcome of a group whose COMMIT got no answer, once looked up. */
type Resolved = 'committed' | 'absent' | 'unknown';

/**
 * The store's one writer: appends and leases queue up while a group's transaction runs and
 * go together in the next (a {@link GroupCommitQueue}: one transaction, one WAL flush for all
 * of them).
 * A group's transaction is two round trips: one locks the book's row (the compare-and-set
 * point for every writer on every machine) and reads what other writers committed since this
 * writer last looked; the writer takes that in and decides each item; the second writes and
 * commits. Each item is answered only after COMMIT returned.
 *
 * When the transaction fails before the write is sent, nothing of it is in the database: the
 * sequencer goes back and every item is refused with code `io`. When the write-and-commit
 * fails (the connection broke, or the server refused), the group may or may not have been
 * committed: the writer looks its token up on a new connection, under the book's lock (so a
 * transaction still running on the server has finished first), and answers by what it finds.
 */
export class GroupWriter {
  private readonly queue = new GroupCommitQueue((group) => this.flush(group));
  private groups = 0;
  /**
   * Where the group that holds the book's lock goes back to if it fails (null: no group holds
   * it): what the sequencer held once the lock was its, or — once it took in the others' commits
   * (committed, whatever becomes of the group) — that.
   */
  private restore: Restore | null = null;
  private writing = false;

  /** `onIdle`: called when a group was answered and no other waits. */
  constructor(
    private readonly s: StoreState,
    private readonly onIdle: () => void = () => undefined,
  ) {}

  /** Whether a group is being written or waits to be: its read under the book's lock will take in what others committed. */
  get busy(): boolean {
    return this.writing || this.queue.waiting > 0;
  }

  /** Queues an append for the next group. */
  append(commit: CommitRecord): Promise<AppendResult> {
    return this.queue.append(commit);
  }

  /** Queues a lease of `count` ids for the next group. */
  lease(count: number): Promise<LeaseResult> {
    return this.queue.lease(count);
  }

  /**
   * From the moment a group holds the book's lock until it is answered: the sequencer is the
   * group's, and a catch-up beside it ({@link PostgresStore}'s, on a notification) must not
   * move it.
   */
  get deciding(): boolean {
    return this.restore !== null;
  }

  /** Runs `task` after everything queued before it (catch-ups share the writer's order). */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /** Resolves once every task queued so far has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async flush(group: readonly QueuedItem[]): Promise<void> {
    this.writing = true;
    try {
      const results = await this.write(group.map((q) => q.item));
      group.forEach((q, i) => {
        const result = results[i];
        if (result) q.answer(result);
      });
    } finally {
      this.writing = false;
      if (this.queue.waiting === 0) this.onIdle();
    }
  }

  private async write(items: readonly GroupItem[]): Promise<readonly ItemResult[]> {
    const s = this.s;
    if (s.poisoned) return items.map((i) => itemRefusal(i.kind, s.poisoned as StoreError));
    const token = `${s.options.writerId}:${s.openedAt}:${(this.groups += 1)}`;
    let decided: DecidedGroup | null = null;
    let caught: CaughtUp | null = null;
    let failure: Failure | null = null;
    try {
      await s.db.with(async (client) => {
        const phase = { now: 'before' as Failure['phase'] };
        try {
          const head = await readHeadFrom(client, s.options.schema, s.sequencer, s.position, true);
          this.restore = this.here();
          if (!head.row) throw new Error("the store's book row is gone: another program dropped its tables");
          caught = await catchUp(client, s.options.schema, s.sequencer, s.position, head);
          this.restore = this.here();
          decided = await this.decide(client, items, token);
          phase.now = 'commit';
          await this.writeAndCommit(client, decided);
        } catch (error) {
          failure = { phase: phase.now, error };
          if (phase.now === 'before') await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    } catch (thrown) {
      failure ??= { phase: 'before', error: thrown };
    }
    try {
      if (failure === null && decided !== null) return this.acknowledged(decided, caught);
      return await this.failed(items, failure ?? { phase: 'before', error: new Error('no decision') }, decided, caught, this.restore);
    } finally {
      this.restore = null;
    }
  }

  /** Where the sequencer and the lease position stand now. */
  private here(): Restore {
    return { state: this.s.sequencer.state, leaseNumber: this.s.position.leaseNumber };
  }

  private async decide(client: PoolClient, items: readonly GroupItem[], token: string): Promise<DecidedGroup> {
    const s = this.s;
    const grant = (count: number, floor: number, revision: number) =>
      grantLease(client, s.options.schema, count, floor, revision, s.options.writerId);
    return decideGroup(
      s.sequencer,
      items,
      { writerId: s.options.writerId, token, at: s.options.clock.now(), document: s.options.display },
      grant,
    );
  }

  /** Writes what the group decided and commits, in one round trip (an error at it leaves the outcome to {@link resolve}). */
  private async writeAndCommit(client: PoolClient, decided: DecidedGroup): Promise<void> {
    const { schema } = this.s.options;
    const book = this.s.sequencer.book;
    if (decided.changed || decided.rows.log.length > 0) {
      const notify = decided.rows.commits.length > 0;
      await writeGroupRows(client, schema, decided.rows, { revision: book.revision, nextId: book.nextId }, { notify, commit: true });
    } else if (decided.results.some((r) => r.kind === 'lease' && r.result.ok)) {
      await client.query(
        withLiterals(inSchema('UPDATE {schema}.book SET next_id = greatest(next_id, $1);\nCOMMIT', schema), [book.nextId]),
      );
    } else {
      await client.query('COMMIT');
    }
  }

  private acknowledged(decided: DecidedGroup, caught: CaughtUp | null): readonly ItemResult[] {
    if (caught) this.s.tookIn(caught);
    this.s.acknowledged(decided);
    return decided.results;
  }

  private async failed(
    items: readonly GroupItem[],
    failure: Failure,
    decided: DecidedGroup | null,
    caught: CaughtUp | null,
    restore: Restore | null,
  ): Promise<readonly ItemResult[]> {
    const s = this.s;
    const token = decided?.token ?? null;
    const outcome: Resolved = failure.phase === 'commit' && token !== null ? await this.resolve(token) : 'absent';
    if (outcome === 'committed' && decided) return this.acknowledged(decided, caught);
    if (restore) {
      s.sequencer.restore(restore.state);
      s.position.leaseNumber = restore.leaseNumber;
    }
    if (caught) s.tookIn(caught);
    const message = messageOf(failure.error);
    if (outcome === 'unknown') {
      s.poison({
        code: 'io',
        message: `the connection broke while a group was committing and the database could not be asked whether it was: reopen the store (${message})`,
        cause: failure.error,
      });
    }
    const error: StoreError = s.poisoned ?? {
      code: 'io',
      message: `the database could not be written: ${message}; nothing of this append was kept`,
      cause: failure.error,
    };
    s.reportIo('append', message, items.length, s.poisoned !== null);
    return items.map((i) => itemRefusal(i.kind, error));
  }

  /**
   * Whether the group with `token` was committed, asked on new connections until
   * `inDoubtTimeoutMs` has passed. The book's row lock is taken first: a transaction still
   * running on the server (its client gone) holds it, so the answer is final once we have it.
   */
  private async resolve(token: string): Promise<Resolved> {
    const s = this.s;
    const deadline = s.options.clock.now() + s.options.inDoubtTimeoutMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        return await s.db.transaction(async (client) => {
          await readBookRow(client, s.options.schema, true);
          const found = await client.query(inSchema('SELECT 1 FROM {schema}.commits WHERE token = $1', s.options.schema), [token]);
          return found.rows.length > 0 ? 'committed' : 'absent';
        });
      } catch {
        if (s.options.clock.now() + wait > deadline) return 'unknown';
        await sleepOn(s.options.clock, wait);
      }
    }
  }
}
