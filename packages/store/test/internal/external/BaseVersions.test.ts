import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { BaseVersions, VERSIONS_KEPT } from '../../../src/internal/external/BaseVersions.ts';
import type { DocumentVersion } from '../../../src/internal/external/BaseVersions.ts';
import { REVISIONS_REBUILT, rebuildVersions } from '../../../src/internal/external/rebuildVersions.ts';
import { RENUMBERINGS_IN_MEMORY, RenumberMemory } from '../../../src/internal/external/RenumberMemory.ts';
import { REMEMBERED_CHECKPOINTS } from '../../../src/internal/disk/Ledger.ts';
import { AceSkillbook } from '../../utils/aceSkillbook.ts';
import { add, day, edit, remove, tag, update } from '../../utils/externalBooks.ts';
import { DOC, openSim } from '../../utils/simStore.ts';
import { openContext } from '../../utils/storeContext.ts';

const version = (source: 'cohort' | 'external', n: number, book: Skillbook, at = n): DocumentVersion => ({
  source,
  digest: `${source}-${n}`,
  book,
  revision: n,
  at,
});

// twenty skills, then Cohort's later versions of the document
const v1 = edit(
  Skillbook.empty(),
  day(1),
  ...Array.from({ length: 20 }, (_, i) => add(`context-${String(i + 1).padStart(5, '0')}`, `skill ${i + 1}`)),
);
const v2 = edit(v1, day(2), update('context-00001', 'cohort, day 2'), add('context-00021', 'cohort 21'));
const v3 = edit(v2, day(3), update('context-00002', 'cohort, day 3'), add('context-00022', 'cohort 22'));

describe('BaseVersions', () => {
  it('keep - at most 8 versions of each source, the oldest go first; a digest seen again becomes the newest', () => {
    const versions = new BaseVersions();
    for (let n = 0; n < 100; n += 1) {
      versions.keep(version('cohort', n, v1));
      versions.keep(version('external', n, v1));
    }
    expect(versions.all.filter((v) => v.source === 'cohort').map((v) => v.revision)).toEqual([92, 93, 94, 95, 96, 97, 98, 99]);
    expect(versions.all).toHaveLength(VERSIONS_KEPT.cohort + VERSIONS_KEPT.external);
    versions.keep(version('cohort', 92, v1));
    expect(versions.all.filter((v) => v.source === 'cohort').map((v) => v.revision)).toEqual([93, 94, 95, 96, 97, 98, 99, 92]);
  });

  it('find - the version the writer loaded wins over older and newer ones; an exact digest is its own base', () => {
    const versions = new BaseVersions();
    for (const [n, book] of [
      [1, v1],
      [2, v2],
      [3, v3],
    ] as const)
      versions.keep(version('cohort', n, book, day(n) + 1));
    // loaded v2 on day 2, saved on day 4: one update and one add on top
    const saved = edit(v2, day(4), update('context-00005', 'theirs'), add('context-00030', 'theirs 30'));
    expect(versions.find(saved, 'unknown')?.version.revision).toBe(2);
    expect(versions.find(v3, 'cohort-1')?.version.revision).toBe(1);
    // a document that lacks most of every version has no base
    expect(versions.find(edit(Skillbook.empty(), day(4), add('context-00001', 'other')), 'x')).toBeNull();
  });

  it("find - of two versions that explain a save equally, one written after the save's newest change loses", () => {
    const tagged = edit(v1, day(2), tag('context-00003'));
    const versions = new BaseVersions();
    versions.keep(version('cohort', 1, v1, day(1)));
    // written after the writer's change: it cannot be what the writer loaded, though the counters fit
    versions.keep(version('cohort', 2, tagged, day(5)));
    const saved = edit(v1, day(3), tag('context-00003'));
    expect(versions.find(saved, 'unknown')?.version.revision).toBe(1);
  });

  it("find - of the writer's own last save and a version Cohort wrote that explain a save equally, the one whose id counter the save counts on from wins", () => {
    // the writer saved v1 (its counter at 20); Cohort then wrote v2, its counter moved past a lease
    const leased = edit(v1, day(2), update('context-00001', 'cohort, day 2')).reserveIds(260);
    const versions = new BaseVersions();
    versions.keep(version('external', 1, v1, day(1)));
    versions.keep(version('cohort', 2, leased, day(2)));
    // the writer loaded Cohort's version: it rewrote that skill and added one under the next id, 261
    const saved = edit(leased, day(3), update('context-00001', 'theirs'), add('context-00261', 'theirs 261'));
    expect(saved.nextId).toBe(261);
    expect(versions.find(saved, 'unknown')?.version.source).toBe('cohort');
    // from its own last save, its next id would have been 21: then that save stays the better base
    const fromMemory = edit(v1, day(3), update('context-00001', 'theirs'), add('context-00021', 'theirs 21'));
    expect(versions.find(fromMemory, 'unknown')?.version.source).toBe('external');
  });

  it('find - of two versions that explain a save equally, one holding a skill of the save that the other counts as added wins', () => {
    // the writer saved a skill of its own; Cohort then wrote its document with a skill of Cohort's as well
    const own = edit(v1, day(2), add('context-00021', 'theirs 21'));
    const cohort = edit(own, day(3), add('context-00022', 'cohort 22'));
    const versions = new BaseVersions();
    versions.keep(version('cohort', 2, cohort, day(3)));
    versions.keep(version('external', 2, own, day(3)));
    // the writer loaded Cohort's document, retired Cohort's skill, tagged one and added one: from its own
    // save, Cohort's skill would count as one it added, which ties the two
    const saved = edit(cohort, day(4), remove('context-00022'), tag('context-00003'), add('context-00023', 'theirs 23'));
    const found = versions.find(saved, 'unknown');
    expect(found?.version.source).toBe('cohort');
    expect(found?.tied).toBeUndefined();
    // where Cohort only changed a skill the writer changed too, nothing tells: the writer's own save decides content
    const changed = edit(own, day(3), update('context-00005', 'cohort, day 3'));
    const tiedVersions = new BaseVersions();
    tiedVersions.keep(version('cohort', 2, changed, day(3)));
    tiedVersions.keep(version('external', 2, own, day(3)));
    const tie = tiedVersions.find(edit(own, day(4), update('context-00005', 'theirs')), 'unknown');
    expect([tie?.version.source, tie?.tied?.source]).toEqual(['external', 'cohort']);
  });

  it('RenumberMemory - keeps the newest 65,536; older ones read back from the journal go first', () => {
    const memory = new RenumberMemory([{ from: 'a', createdAt: 't', to: 'b' }]);
    memory.add(Array.from({ length: RENUMBERINGS_IN_MEMORY }, (_, i) => ({ from: `x${i}`, createdAt: 't', to: `y${i}` })));
    expect(memory.size).toBe(RENUMBERINGS_IN_MEMORY);
    expect(memory.lookup('a', 't')).toBeUndefined();
    memory.addOlder([{ from: 'old', createdAt: 't', to: 'o' }]);
    expect([memory.lookup('old', 't'), memory.lookup(`x${RENUMBERINGS_IN_MEMORY - 1}`, 't')]).toEqual([
      undefined,
      `y${RENUMBERINGS_IN_MEMORY - 1}`,
    ]);
  });

  it('rebuildVersions - replays the journal into the last 64 revisions the document held and the last 8 external saves, all rebuilt exactly', async () => {
    const sim = new SimFs({ seed: 8 });
    // every commit is written to the document: each revision is one another program may have loaded
    const { store } = await openSim(sim, { checkpointEvery: 1, checkpointJournalRatio: 0 });
    const saves: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const r = await store.append(makeCommit(store.book, [addOp(`c${i}`)], { basis: 'store' }).commit);
      if (!r.ok) throw new Error(r.error.message);
      if (i % 10 === 9) {
        // another program saves the document as it reads it, plus a skill of its own
        const ace = AceSkillbook.loads(sim.readText(DOC) ?? '');
        ace.addSkill('context', `ace ${i}`, { insight: 'x' });
        sim.write(DOC, ace.dumps());
        saves.push(ace.dumps());
        await store.load();
      }
    }
    await store.close();
    const { ctx: reopened, view } = await openContext(sim);
    const rebuilt = await rebuildVersions(reopened, view);
    const revisions = rebuilt?.candidates.map((c) => c.revision) ?? [];
    // the last 16 documents the ledger remembers writing, and the changes taken in (each wrote the document)
    expect(view.ledger.checkpoints).toHaveLength(REMEMBERED_CHECKPOINTS);
    for (const r of view.ledger.checkpoints) expect(revisions).toContain(r);
    expect(revisions.length).toBeGreaterThan(REMEMBERED_CHECKPOINTS);
    expect(revisions.length).toBeLessThanOrEqual(REVISIONS_REBUILT);
    expect(rebuilt?.candidates.at(-1)?.book.toJSON()).toBe(reopened.sequencer.book.toJSON());
    expect(rebuilt?.externals).toHaveLength(VERSIONS_KEPT.external);
    // each rebuilt save holds the skills that document held, in Cohort's ids
    const last = rebuilt?.externals.at(-1);
    const saved = Skillbook.fromJSON(saves.at(-1) ?? '');
    expect([...(last?.book.skills() ?? [])].map((s) => s.issue).sort()).toEqual([...saved.skills()].map((s) => s.issue).sort());
    await reopened.lock.release();
  });

  it('rebuildVersions - a revision that never reached the document is no candidate: another program cannot have loaded it', async () => {
    const sim = new SimFs({ seed: 9 });
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    for (let i = 0; i < 5; i += 1) {
      const r = await store.append(makeCommit(store.book, [addOp(`c${i}`)], { basis: 'store' }).commit);
      if (!r.ok) throw new Error(r.error.message);
      if (i === 2) await store.checkpoint();
    }
    await store.close();
    const { ctx, view } = await openContext(sim);
    const rebuilt = await rebuildVersions(ctx, view);
    // created (0), the checkpoint at 3, the close at 5
    expect(rebuilt?.candidates.map((c) => c.revision)).toEqual([0, 3, 5]);
    await ctx.lock.release();
  });
});
