import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import type { AppendResult } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { PgStores } from './utils/openPg.ts';

const stores = new PgStores();
afterEach(() => stores.cleanup());

const target = fc.constantFrom('context-00001', 'context-00002', 'harness-00003', 'context-00004', 'harness-00005');
const op: fc.Arbitrary<RawOp> = fc.oneof(
  fc.constantFrom('context', 'harness').map((section) => addOp(`added in ${section}`, section as 'context' | 'harness')),
  fc.tuple(target, fc.nat(99)).map(([id, n]) => ({ type: 'UPDATE', section: 'context', skill_id: id, insight: `v${n}` })),
  target.map((id) => ({ type: 'TAG', section: 'context', skill_id: id, metadata: { delta: 1 } })),
  target.map((id) => ({ type: 'REMOVE', section: 'context', skill_id: id })),
);
/** One commit: which of two writers makes it, whether it first catches up (else it is based on what it last saw), its ops. */
const step = fc.record({ writer: fc.constantFrom(0, 1), fresh: fc.boolean(), ops: fc.array(op, { minLength: 1, maxLength: 3 }) });

/** What a result says, to compare two stores' answers. */
function verdict(r: AppendResult): unknown {
  if (!r.ok) return { code: r.error.code, conflicts: r.error.conflicts?.map((c) => [c.opIndex, c.skillId, c.reason]) ?? [] };
  return { revision: r.revision, idMap: r.idMap ? [...r.idMap] : [], book: r.book.toJSON() };
}

describe('PostgresStore decides as every store decides', () => {
  it('same decisions - two writers on one database, with stale and fresh bases, get exactly the answers one memory store gives the same commits in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
        const schema = stores.schema('same');
        const seeded = makeCommit(Skillbook.empty(), [addOp('one'), addOp('two'), addOp('three', 'harness')]).book;
        const writers = [await stores.open({ schema, initialBook: seeded, listen: false }), await stores.open({ schema, listen: false })];
        const reference = new MemoryStore(seeded);
        const views: Skillbook[] = writers.map((w) => w.book);
        for (const [i, s] of steps.entries()) {
          const writer = writers[s.writer];
          if (!writer) continue;
          if (s.fresh) views[s.writer] = (await writer.load()).book;
          const made = makeCommit(views[s.writer] ?? seeded, s.ops, { basis: 'store', sessionId: `c${i}`, path: [`c${i}`] });
          const theirs = await writer.append(made.commit);
          const ours = await reference.append(made.commit);
          expect(verdict(theirs)).toEqual(verdict(ours));
          if (theirs.ok) views[s.writer] = theirs.book;
        }
        expect((await writers[0]?.load())?.book.toJSON()).toBe(reference.current().book.toJSON());
        await stores.cleanup();
      }),
      { numRuns: 25, seed: 16 },
    );
  }, 120_000);
});
