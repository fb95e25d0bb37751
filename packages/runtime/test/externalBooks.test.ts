import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord, Store, StoreSnapshot } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { createRuntime } from '@cohort/runtime';

/** A memory store that another writer appends to as well, announcing its books on `external$` (as a database store does). */
class SharedStore extends MemoryStore implements Store {
  readonly others = new Subject<StoreSnapshot>();
  readonly external$ = this.others.asObservable();
  /** Appends as the other writer, and announces the book. */
  async other(commit: CommitRecord): Promise<AppendResult> {
    const r = await this.append(commit);
    this.others.next(this.current());
    return r;
  }
}

describe('a runtime on a store with other writers', () => {
  it("external books - the root takes in another writer's book from store.external$: a later session sees its skill, and merges on top of it", async () => {
    const store = new SharedStore();
    const rt = createRuntime({ store });
    await rt.ready;
    const theirs = await store.other(makeCommit(store.current().book, [addOp('from another process')], { sessionId: 'elsewhere' }).commit);
    if (!theirs.ok) throw new Error(theirs.error.message);
    expect(rt.revision).toBe(theirs.revision);
    const outcome = await rt.run(async (s) => {
      const seen = [...s.book.skills()].find((k) => k.issue === 'from another process')?.issue;
      const added = await s.tools.add_skill({ section: 'context', issue: 'from this runtime', insight: 'x' });
      return { seen, added: 'ok' in added ? added.skill_id : added.error };
    });
    expect(outcome.status).toBe('committed');
    if (outcome.status !== 'committed') return;
    expect(outcome.output.seen).toBe('from another process');
    // the runtime's ids come from its own lease: the id it told is the id in the book
    expect(rt.book.get(outcome.output.added)?.issue).toBe('from this runtime');
    expect(rt.revision).toBe(theirs.revision + 1);
    await rt.close();
  });

  it('external books - a book announced while a merge is on its way is taken in once none is, and an older one changes nothing', async () => {
    const store = new SharedStore();
    const rt = createRuntime({ store });
    await rt.ready;
    const running = rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'mine', insight: 'x' }));
    const stale = store.current();
    // the other writer's id is its own (as one drawn from a lease would be)
    const op = { ...addOp('theirs', 'harness'), skill_id: 'harness-00100' };
    const theirs = await store.other(
      makeCommit(store.current().book, [op], { sessionId: 'elsewhere', basis: 'store', explicitIds: ['harness-00100'] }).commit,
    );
    const mine = await running;
    expect(mine.status === 'failed' ? mine.failure.message : mine.status).toBe('committed');
    store.others.next(stale);
    const book = rt.book;
    expect([book.revision >= (theirs.ok ? theirs.revision : 0), book.size]).toEqual([true, 2]);
    await rt.close();
  });
});
