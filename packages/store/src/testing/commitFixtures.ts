import { createIdAllocator } from '@cohort/skillbook';
import type { AppliedOp, IdAllocatorHandle, Skillbook } from '@cohort/skillbook';
import { die } from '../errors.ts';
import type { CommitRecord } from '../Store.ts';
import type { StoreClock } from '../StoreClock.ts';

/** A raw ACE operation, as a session writes it. */
export type RawOp = Readonly<Record<string, unknown>>;

/** A deterministic clock for tests: time moves only when `advance` is called; timers fire then. */
export class ManualClock implements StoreClock {
  private time: number;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextHandle = 1;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + Math.max(0, ms), fn });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time on by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].fn();
    }
    this.time = end;
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.size;
  }
}

/** What {@link makeCommit} returns: the commit and the book the session saw after its ops. */
export interface MadeCommit {
  readonly commit: CommitRecord;
  readonly book: Skillbook;
  readonly ops: readonly AppliedOp[];
}

/** Options of {@link makeCommit}. */
export interface MakeCommitOptions {
  readonly sessionId?: string;
  readonly path?: readonly string[];
  /** The allocator ADDs draw ids from (default: the book's own counter). */
  readonly ids?: IdAllocatorHandle;
  readonly at?: number;
  readonly basis?: 'store' | 'speculative';
  /** Ids of ADDs the session chose itself (see `CommitRecord.explicitIds`). */
  readonly explicitIds?: readonly string[];
  /** Where the other ADD ids were allocated (see `CommitRecord.allocation`). */
  readonly allocation?: 'leased' | 'unleased';
}

let sessions = 0;

/**
 * Applies raw ACE operations to `book`, as a session would, and packages the applied ops as a
 * commit based on `book.revision`: one audit block, of the committing session. Throws when
 * the batch is refused (a test bug).
 *
 * @example
 * ```ts
 * const { commit } = makeCommit(book, [{ type: 'ADD', section: 'context', issue: 'x', insight: 'y' }]);
 * await store.append(commit);
 * ```
 */
export function makeCommit(book: Skillbook, operations: readonly RawOp[], options: MakeCommitOptions = {}): MadeCommit {
  const at = options.at ?? Date.UTC(2026, 0, 1);
  const ids = options.ids ?? createIdAllocator(book.nextId);
  const result = book.applyBatch({ operations }, { clock: { now: () => at }, allocateId: ids.allocate });
  if (!result.ok) die('TESTING_BATCH_REFUSED', result.error.message);
  const sessionId = options.sessionId ?? `s${(sessions += 1)}`;
  const path = options.path ?? ['root', sessionId];
  const commit: CommitRecord = {
    expectedRevision: book.revision,
    sessionId,
    path,
    entries: [{ sessionId, path, ops: result.applied, at }],
    at,
    ...(options.basis ? { basis: options.basis } : {}),
    ...(options.explicitIds ? { explicitIds: options.explicitIds } : {}),
    ...(options.allocation ? { allocation: options.allocation } : {}),
  };
  return { commit, book: result.book, ops: result.applied };
}

/** An ADD of a skill whose issue is `issue`. */
export function addOp(issue: string, section: 'context' | 'harness' = 'context'): RawOp {
  return { type: 'ADD', section, issue, insight: `insight for ${issue}`, keywords: ['test'] };
}

/** Replays `commits` (their ops, in order) on `initial`; throws when one does not replay. */
export function replayAll(initial: Skillbook, commits: readonly (readonly AppliedOp[])[]): Skillbook {
  let book = initial;
  for (const ops of commits) {
    const r = book.replay(ops);
    if (!r.ok) die('TESTING_REPLAY_REFUSED', r.error.message);
    book = r.book;
  }
  return book;
}
