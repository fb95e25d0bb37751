import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import type { FileStore, StoreNotice } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { AceSkillbook } from './utils/aceSkillbook.ts';
import { DOC, collect, openSim } from './utils/simStore.ts';

const RECONCILED = new Set(['store.adopted', 'store.rebased', 'store.forked', 'store.force_saved']);
type Reconciled = Extract<StoreNotice, { type: 'store.adopted' | 'store.rebased' | 'store.forked' | 'store.force_saved' }>;
const reconciliations = (seen: readonly StoreNotice[]): Reconciled[] => seen.filter((n): n is Reconciled => RECONCILED.has(n.type));

async function commit(store: FileStore, ...ops: RawOp[]): Promise<void> {
  const r = await store.append(makeCommit(store.book, ops, { basis: 'store' }).commit);
  if (!r.ok) throw new Error(r.error.message);
}

/** A store on a simulated disk (`seed`) holding `ops`, checkpointed, and ACE's copy of its document, loaded then. */
async function aceCopyOfStore(seed: number, ...ops: RawOp[]): Promise<{ sim: SimFs; store: FileStore; ace: AceSkillbook }> {
  const sim = new SimFs({ seed });
  const { store } = await openSim(sim);
  await commit(store, ...ops);
  await store.checkpoint();
  return { sim, store, ace: AceSkillbook.loads(sim.readText(DOC) ?? '') };
}

const update = (id: string, insight: string): RawOp => ({ type: 'UPDATE', section: 'context', skill_id: id, insight });
const tag = (id: string): RawOp => ({ type: 'TAG', section: 'context', skill_id: id, metadata: { delta: 1 } });
const issues = (book: Skillbook): string[] => [...book.skills()].map((s) => s.issue);

describe('FileStore sharing its document with other writers', () => {
  it('a person - content edited in an editor comes in, a deletion of a skill Cohort did not change is taken, one of a skill Cohort changed is a conflict', async () => {
    const sim = new SimFs({ seed: 1 });
    const { store } = await openSim(sim);
    const seen = collect(store);
    const many = Array.from({ length: 16 }, (_, i) => addOp(`skill ${i + 5}`));
    await commit(store, addOp('keep'), addOp('edit me'), addOp('delete me'), addOp('contested'), ...many);
    await store.checkpoint();
    await commit(store, update('context-00004', 'changed by Cohort'), addOp('cohort, after'));
    // a person opens the document in an editor (the checkpoint), edits, deletes, saves
    const doc = AceSkillbook.loads(sim.readText(DOC) ?? '');
    const edited = doc.skills.get('context-00002');
    if (edited) edited.insight = 'edited by hand';
    for (const id of ['context-00003', 'context-00004']) doc.skills.delete(id);
    doc.sections.set(
      'context',
      (doc.sections.get('context') ?? []).filter((id) => doc.skills.has(id)),
    );
    sim.write(DOC, doc.dumps());
    await store.load();
    expect(issues(store.book)).toEqual(['keep', 'edit me', 'contested', ...many.map((op) => op['issue']), 'cohort, after']);
    expect(store.book.get('context-00002')?.insight).toBe('edited by hand');
    expect(store.book.get('context-00004')?.insight).toBe('changed by Cohort');
    const [reconciled] = reconciliations(seen);
    expect(reconciled).toMatchObject({
      type: 'store.rebased',
      base: { source: 'cohort', revision: 1 },
      external: { counts: { changed: 1, dropped: 2 } },
      conflicts: [
        { skillId: 'context-00004', type: 'REMOVE', reason: 'content_changed', theirs: null, ours: { insight: 'changed by Cohort' } },
      ],
    });
    // a deletion that lost has no content to keep: no recovery copy
    expect(sim.list('/db').filter((f) => f.includes('.recovery-'))).toEqual([]);
    await store.close();
  });

  it('the same save - a document saved again as it was, or only reformatted, changes nothing', async () => {
    const { sim, store, ace } = await aceCopyOfStore(2, addOp('one'), addOp('two'));
    ace.tagSkill('context-00001', 1);
    ace.addSkill('context', 'from ace', { insight: 'x' });
    const saved = ace.dumps();
    sim.write(DOC, saved);
    await store.load();
    const once = store.book;
    expect(once.get('context-00001')?.helpful_count).toBe(1);
    // the store rewrote the document; the same bytes are written again, then the same content reformatted
    sim.write(DOC, saved);
    await store.load();
    sim.write(DOC, JSON.stringify(JSON.parse(saved)));
    await store.load();
    expect(store.book.toJSON()).toBe(once.toJSON());
    await store.close();
  });

  it('a long-running writer across a restart - its next save is reconciled against its last one, rebuilt from the journal: renumbered skills land on their ids, each tag counts once', async () => {
    // ACE loads once and keeps its own copy
    const { sim, store: first, ace } = await aceCopyOfStore(3, addOp('cohort one'));
    await commit(first, addOp('cohort two'), addOp('cohort three'));
    const mine = ace.addSkill('context', 'ace one', { insight: 'x' });
    sim.write(DOC, ace.dumps());
    const seenFirst = collect(first);
    await first.load();
    const remapped = seenFirst.find((n) => n.type === 'store.ids_remapped');
    expect(remapped).toMatchObject({ sessionId: 'external', idMap: { [mine.id]: 'context-00004' } });
    await commit(first, tag('context-00004'), addOp('cohort four'));
    await first.close();
    // Cohort restarts; ACE saves from memory again: its skill under its old id, tagged
    const { store, notices } = await openSim(sim);
    const seen = collect(store);
    ace.tagSkill(mine.id, 1);
    ace.addSkill('context', 'ace two', { insight: 'y' });
    sim.write(DOC, ace.dumps());
    await store.load();
    expect(notices.length + seen.length).toBeGreaterThan(0);
    expect(issues(store.book)).toEqual(['cohort one', 'cohort two', 'cohort three', 'ace one', 'cohort four', 'ace two']);
    expect(store.book.get('context-00004')).toMatchObject({ issue: 'ace one', helpful_count: 2 });
    const [reconciled] = reconciliations(seen);
    expect(reconciled).toMatchObject({ base: { source: 'external' }, conflicts: [] });
    // only the newcomer is renumbered: the skill renumbered before is not new again
    expect(
      seen.filter((n) => n.type === 'store.ids_remapped').map((n) => n.type === 'store.ids_remapped' && Object.values(n.idMap)),
    ).toEqual([['context-00006']]);
    await store.close();
  });

  it('no version matches - a document written from scratch is reconciled conservatively: its skills come in, nothing is deleted, the notice says so', async () => {
    const sim = new SimFs({ seed: 4 });
    const initialBook = makeCommit(
      Skillbook.empty(),
      Array.from({ length: 5 }, (_, i) => addOp(`seed ${i}`)),
    ).book;
    const { store } = await openSim(sim, { initialBook });
    const seen = collect(store);
    await commit(store, addOp('one'), addOp('two'));
    await store.checkpoint();
    const scratch = Skillbook.empty().applyBatch({
      operations: [{ type: 'ADD', section: 'harness', skill_id: 'harness-00090', issue: 'written by hand' }],
    });
    if (!scratch.ok) throw new Error(scratch.error.message);
    sim.write(DOC, scratch.book.toJSON());
    await store.load();
    expect(issues(store.book)).toEqual(['seed 0', 'seed 1', 'seed 2', 'seed 3', 'seed 4', 'one', 'two', 'written by hand']);
    expect(reconciliations(seen)[0]).toMatchObject({
      type: 'store.rebased',
      base: { source: 'none', revision: null, digest: null },
      external: { counts: { added: 1 } },
    });
    await store.close();
  });

  it("renumbered skills - remembered across a restart beyond the ledger's 256: the journal has them", async () => {
    const { sim, store: first, ace } = await aceCopyOfStore(5, addOp('anchor'));
    const ids: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      // Cohort takes the next ids, ACE adds 100 from its stale next_id
      await commit(first, ...Array.from({ length: 100 }, (_, i) => addOp(`cohort ${round}-${i}`)));
      for (let i = 0; i < 100; i += 1) ids.push(ace.addSkill('context', `ace ${round}-${i}`, { insight: 'x' }).id);
      sim.write(DOC, ace.dumps());
      await first.load();
    }
    const placed = new Map([...first.book.skills()].filter((s) => s.issue.startsWith('ace ')).map((s) => [s.issue, s.id]));
    expect(placed.size).toBe(300);
    await first.close();
    const { store } = await openSim(sim);
    const seen = collect(store);
    for (const id of ids) ace.tagSkill(id, 1);
    sim.write(DOC, ace.dumps());
    await store.load();
    expect(seen.filter((n) => n.type === 'store.ids_remapped')).toEqual([]);
    const after = [...store.book.skills()].filter((s) => s.issue.startsWith('ace '));
    expect(after).toHaveLength(300);
    for (const s of after) expect([s.id, s.helpful_count]).toEqual([placed.get(s.issue), 1]);
    await store.close();
  });

  it("a long-running writer across a restart - its update of a skill Cohort updated after the writer's last save is a conflict: Cohort's stays, the writer's goes to a copy", async () => {
    const { sim, store: first, ace } = await aceCopyOfStore(6, addOp('shared'));
    ace.tagSkill('context-00001', 1);
    sim.write(DOC, ace.dumps());
    await first.load();
    // Cohort changes the skill after the writer's save was reconciled, then restarts
    await commit(first, update('context-00001', 'changed by Cohort'));
    await first.close();
    const { store } = await openSim(sim);
    const seen = collect(store);
    ace.updateSkill('context-00001', { insight: 'changed by ACE, from its old copy' });
    sim.write(DOC, ace.dumps());
    await store.load();
    expect(store.book.get('context-00001')).toMatchObject({ insight: 'changed by Cohort', helpful_count: 1 });
    const [reconciled] = reconciliations(seen);
    expect(reconciled).toMatchObject({
      type: 'store.forked',
      base: { source: 'external' },
      conflicts: [{ skillId: 'context-00001', type: 'UPDATE', reason: 'content_changed' }],
    });
    const copy = reconciled && 'copy' in reconciled ? Skillbook.fromJSON(sim.readText(reconciled.copy) ?? '') : null;
    expect(copy?.get('context-00001')?.insight).toBe('changed by ACE, from its old copy');
    await store.close();
  });

  it('a writer that reloads - its removal of a skill Cohort added after its last save comes in: it loaded a document with it', async () => {
    const { sim, store, ace } = await aceCopyOfStore(8, addOp('shared'));
    const seen = collect(store);
    ace.addSkill('context', 'ace, first save', { insight: 'x' });
    sim.write(DOC, ace.dumps());
    await store.load();
    await commit(store, addOp('cohort, after that save'));
    await store.checkpoint();
    // it reloads Cohort's document, retires Cohort's new skill, tags one and adds one
    const reloaded = AceSkillbook.loads(sim.readText(DOC) ?? '');
    const added = store.book.get('context-00003');
    expect(added?.issue).toBe('cohort, after that save');
    reloaded.removeSkill('context-00003');
    reloaded.tagSkill('context-00001', 1);
    reloaded.addSkill('context', 'ace, second save', { insight: 'y' });
    sim.write(DOC, reloaded.dumps());
    await store.load();
    expect(store.book.get('context-00003')?.active).toBe(false);
    // taken in against Cohort's version with nothing lost; reported as adopted or as rebased, as the run's timing falls
    const last = reconciliations(seen).at(-1);
    expect(last).toMatchObject({ base: { source: 'cohort' }, conflicts: [] });
    expect(['store.adopted', 'store.rebased']).toContain(last?.type);
    expect(sim.list('/db').filter((f) => f.includes('.recovery-'))).toEqual([]);
    await store.close();
  });

  it('a removal is never undone - a writer saving its older copy, where the skill Cohort removed is still active, leaves it removed', async () => {
    const { sim, store: first, ace } = await aceCopyOfStore(7, addOp('keep'), addOp('retire me'));
    ace.tagSkill('context-00001', 1);
    sim.write(DOC, ace.dumps());
    await first.load();
    await commit(first, { type: 'REMOVE', section: 'context', skill_id: 'context-00002' });
    await first.close();
    const { store } = await openSim(sim);
    ace.addSkill('context', 'ace, after the restart', { insight: 'x' });
    sim.write(DOC, ace.dumps());
    await store.load();
    expect(store.book.get('context-00002')?.active).toBe(false);
    expect(issues(store.book)).toEqual(['keep', 'retire me', 'ace, after the restart']);
    await store.close();
  });
});
