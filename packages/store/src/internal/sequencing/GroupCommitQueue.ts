import type { AppendResult, CommitRecord, LeaseResult, StoreError } from '../../Store.ts';

/** What a store writes in one group: appends, and id leases asked for. */
export type GroupItem = { readonly kind: 'append'; readonly commit: CommitRecord } | { readonly kind: 'lease'; readonly count: number };

/** The result of one {@link GroupItem}, of its kind. */
export type ItemResult =
  | { readonly kind: 'append'; readonly result: AppendResult }
  | { readonly kind: 'lease'; readonly result: LeaseResult };

/**
 * A refusal with `error` as the result of an item of `kind`.
 *
 * @example
 * const refused = itemRefusal('append', { code: 'closed', message: 'the store is closed' });
 */
export function itemRefusal(kind: GroupItem['kind'], error: StoreError): ItemResult {
  return kind === 'append' ? { kind, result: { ok: false, error } } : { kind, result: { ok: false, error } };
}

/** One item of a group being written, and its answer: the first one given is the caller's, later ones are ignored. */
export interface QueuedItem {
  readonly item: GroupItem;
  /** Whether the item has its answer. */
  readonly answered: boolean;
  /** Answers the item's caller (an answer of another kind than the item is refused as a defect). */
  answer(result: ItemResult): void;
}

/**
 * Writes one group: makes its items durable together and answers each once its own part is
 * (an item it leaves unanswered is refused with code `io`, as is every item when it throws).
 */
export type WriteGroup = (group: readonly QueuedItem[]) => Promise<void>;

/** An answer of another kind than the item: a defect of the writer, refused rather than mistaken. */
const mismatch = (): StoreError => ({ code: 'io', message: 'internal: a result of another kind' });

class Queued implements QueuedItem {
  answered = false;

  constructor(
    readonly item: GroupItem,
    private readonly resolve: (result: ItemResult) => void,
  ) {}

  answer(result: ItemResult): void {
    if (this.answered) return;
    this.answered = true;
    this.resolve(result.kind === this.item.kind ? result : itemRefusal(this.item.kind, mismatch()));
  }
}

/**
 * Group commit, for a store implementation: appends and leases submitted while a group is
 * being written wait, and the next group takes all of them — one durable write (an fsync, a
 * transaction) for many callers. Groups, and any other task given to {@link run}, run one at a
 * time in the order they were queued, so a store's writer is never re-entered. The file store
 * and the PostgreSQL store both write through one.
 *
 * @example
 * ```ts
 * const queue = new GroupCommitQueue(async (group) => {
 *   const results = await writeTogether(group.map((q) => q.item)); // one fsync or transaction
 *   group.forEach((q, i) => q.answer(results[i]!));
 * });
 * const done = await queue.append(commit);
 * ```
 */
export class GroupCommitQueue {
  private queue: Queued[] = [];
  private scheduled = false;
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly writeGroup: WriteGroup) {}

  /** How many items wait for the next group. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Queues an append for the next group. */
  async append(commit: CommitRecord): Promise<AppendResult> {
    const done = await this.submit({ kind: 'append', commit });
    return done.kind === 'append' ? done.result : { ok: false, error: mismatch() };
  }

  /** Queues a lease of `count` ids for the next group. */
  async lease(count: number): Promise<LeaseResult> {
    const done = await this.submit({ kind: 'lease', count });
    return done.kind === 'lease' ? done.result : { ok: false, error: mismatch() };
  }

  /** Queues an item for the next group; resolves with its answer. Never rejects. */
  submit(item: GroupItem): Promise<ItemResult> {
    return new Promise((resolve) => {
      this.queue.push(new Queued(item, resolve));
      if (this.scheduled) return;
      this.scheduled = true;
      void this.run(() => {
        this.scheduled = false;
        return this.flush(this.queue.splice(0));
      });
    });
  }

  /** Runs `task` after everything queued before it (a catch-up, a checkpoint: they share the writer's order). */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.work.then(task);
    this.work = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** Resolves once every task queued so far has finished. */
  idle(): Promise<void> {
    return this.run(async () => undefined);
  }

  private async flush(group: readonly Queued[]): Promise<void> {
    let error: StoreError = { code: 'io', message: 'internal: the group was written without an answer for it' };
    try {
      await this.writeGroup(group);
    } catch (thrown) {
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      error = { code: 'io', message: `the group could not be written: ${message}`, cause: thrown };
    }
    for (const q of group) if (!q.answered) q.answer(itemRefusal(q.item.kind, error));
  }
}
