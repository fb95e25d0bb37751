import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore, SimFs, replayHistory } from '@cohort/store';
import type { Store } from '@cohort/store';
import { makeCommit, readHistory } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { PROTOTYPE_NAMES } from './utils/prototypeNames.ts';
import { DOC, openSim } from './utils/simStore.ts';

const NAMES = PROTOTYPE_NAMES;

const op = fc.record({
  type: fc.constantFrom('ADD', 'UPDATE', 'TAG', 'REMOVE'),
  id: fc.constantFrom(...NAMES),
  text: fc.constantFrom('a', 'b', 'c'),
  older: fc.boolean(),
});

function raw(o: { type: string; id: string; text: string }): RawOp {
  if (o.type === 'ADD') return { type: 'ADD', section: 'harness', skill_id: o.id, issue: `issue ${o.text}` };
  if (o.type === 'UPDATE') return { type: 'UPDATE', skill_id: o.id, issue: `changed ${o.text}` };
  if (o.type === 'TAG') return { type: 'TAG', skill_id: o.id, metadata: { delta: o.text === 'a' ? 1 : -1 } };
  return { type: 'REMOVE', skill_id: o.id };
}

/** Appends each op as its own commit, based on the current book or (`older`) the book before the last commit. */
async function drive(store: Store, ops: readonly { type: string; id: string; text: string; older: boolean }[]): Promise<void> {
  let previous = (await store.load()).book;
  for (const [i, o] of ops.entries()) {
    const current = (await store.load()).book;
    const base = o.older ? previous : current;
    const applied = base.applyBatch({ operations: [raw(o)] });
    if (!applied.ok || applied.applied.length === 0) continue;
    const made = makeCommit(base, [raw(o)], {
      sessionId: NAMES[i % NAMES.length] ?? 's',
      path: ['constructor', 'toString'],
      basis: 'store',
      explicitIds: [o.id],
    });
    await store.append(made.commit);
    previous = current;
  }
}

/** The skills, field for field, in id order (history reproduces every skill, not the document's order of them). */
const skills = (book: Skillbook) => JSON.stringify([...book.skills()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));

describe('any string is an id', () => {
  it('prototype member names go through commits, conflicts, both stores, history and reopen like any id (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const memory = new MemoryStore(Skillbook.empty(), { clock: { now: () => 0, setTimeout, clearTimeout } });
        const sim = new SimFs();
        const { store: file } = await openSim(sim, { checkpointEvery: 4, checkpointJournalRatio: 0 });
        await drive(memory, ops);
        await drive(file, ops);
        const book = (await memory.load()).book;
        expect(skills((await file.load()).book)).toBe(skills(book));
        for (const store of [memory, file]) {
          const replayed = replayHistory(await readHistory(store, 5));
          expect(replayed.ok && skills(replayed.book)).toBe(skills(book));
        }
        await file.close();
        const { store: reopened } = await openSim(sim);
        expect(skills(reopened.book)).toBe(skills(book));
        const replayed = replayHistory(await readHistory(reopened));
        expect(replayed.ok && skills(replayed.book)).toBe(skills(book));
        await reopened.close();
        await memory.close();
      }),
      { numRuns: 40 },
    );
  });

  it("the external-writer path - another program's skills named like prototype members are taken in, renumbered when they collide, and replay", async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    await store.append(
      makeCommit(store.book, [{ type: 'ADD', section: 'harness', skill_id: 'constructor', issue: 'ours' }], {
        explicitIds: ['constructor'],
      }).commit,
    );
    // ACE started from the document before our commit, and adds skills of its own under prototype names
    const stale = Skillbook.empty();
    const theirs = stale.applyBatch(
      {
        operations: [
          { type: 'ADD', section: 'harness', skill_id: 'constructor', issue: 'theirs' },
          { type: 'ADD', section: 'harness', skill_id: '__proto__', issue: 'proto' },
          { type: 'ADD', section: 'harness', skill_id: 'valueOf', issue: 'value' },
        ],
      },
      { clock: { now: () => Date.UTC(2026, 3, 1) } },
    );
    if (!theirs.ok) throw new Error(theirs.error.message);
    sim.write(DOC, theirs.book.toJSON());
    await store.load();
    const book = store.book;
    expect(book.get('constructor')?.issue).toBe('ours');
    expect(book.get('__proto__')?.issue).toBe('proto');
    expect(book.get('valueOf')?.issue).toBe('value');
    expect([...book.skills()].filter((s) => s.issue === 'theirs')).toHaveLength(1);
    const replayed = replayHistory(await readHistory(store));
    expect(replayed.ok && skills(replayed.book)).toBe(skills(book));
    await store.close();
    const { store: reopened } = await openSim(sim);
    expect(skills(reopened.book)).toBe(skills(book));
    await reopened.close();
  });
});
