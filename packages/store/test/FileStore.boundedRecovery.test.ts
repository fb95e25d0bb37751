import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import type { StoreNotice } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, collect, openSim } from './utils/simStore.ts';

const TARGET = 'context-00001';

/** Rewrites the document the way ACE's save_to_file does, changing the target's content. */
function diverge(sim: SimFs, n: number): void {
  const book = Skillbook.fromJSON(sim.readText(DOC) ?? '');
  const r = book.applyBatch(
    { operations: [{ type: 'UPDATE', section: 'context', skill_id: TARGET, insight: `theirs ${n}` }] },
    { clock: { now: () => Date.UTC(2026, 1, 1) } },
  );
  if (!r.ok) throw new Error(r.error.message);
  sim.write(DOC, r.book.toJSON());
}

function recoveryFiles(sim: SimFs): string[] {
  return sim.list('/db').filter((n) => n.includes('.recovery-'));
}

describe('FileStore bounded recovery', () => {
  it('bounded recovery - 1,000 conflicting saves of a writer that keeps diverging make one copy per depth up to 3, then one fixed-point copy, each notice once', async () => {
    const sim = new SimFs({ seed: 5 });
    const initial = makeCommit(Skillbook.empty(), [addOp('contested')]).book;
    const { store } = await openSim(sim, { initialBook: initial });
    const notices = collect(store);
    let acked = 0;
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const update = makeCommit(store.book, [{ type: 'UPDATE', section: 'context', skill_id: TARGET, insight: `ours ${attempt}` }], {
        basis: 'store',
        sessionId: `save-${attempt}`,
      });
      const result = await store.append(update.commit);
      if (result.ok) {
        acked += 1;
        diverge(sim, attempt);
      } else {
        expect(result.error.code).toBe('conflict');
      }
    }
    await store.close();

    const forks = notices.filter((n) => n.type === 'store.forked');
    const fixed = notices.filter((n) => n.type === 'store.force_saved');
    expect(acked).toBeGreaterThan(400);
    expect(forks.map((n) => n.type === 'store.forked' && n.depth)).toEqual([1, 2, 3]);
    expect(fixed.length).toBeGreaterThan(300);
    expect(new Set(fixed.map((n) => n.type === 'store.force_saved' && n.copy)).size).toBe(1);
    // the file count stays bounded: three copies by depth, one fixed-point copy, and their sidecars
    const copies = recoveryFiles(sim).filter((n) => !n.endsWith('.meta.json'));
    expect(copies).toHaveLength(4);
    expect(copies.filter((n) => n.includes('.recovery-fixed-'))).toHaveLength(1);
    expect(recoveryFiles(sim)).toHaveLength(8);
    // one notice per occurrence, and one conflict-log record per notice
    const ids = notices.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    const log = (sim.readText(`${DOC}.conflicts`) ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StoreNotice);
    expect(log.filter((r) => r.type === 'store.forked' || r.type === 'store.force_saved')).toHaveLength(forks.length + fixed.length);
    // every save acknowledged is in the audit journal
    const journal = sim.readText(`${DOC}.journal`) ?? '';
    expect(journal.split('\n').filter((l) => l.includes('"t":"commit"') && l.includes('"save-'))).toHaveLength(acked);
    // the live book keeps our acknowledged content; the fixed-point copy holds the other writer's last losing version, once
    expect(store.book.get(TARGET)?.insight).toMatch(/^ours \d+$/);
    const fixedCopy = Skillbook.fromJSON(sim.readText(`/db/${copies.find((n) => n.includes('.recovery-fixed-')) ?? ''}`) ?? '');
    expect([...fixedCopy.skills()].map((s) => s.insight)).toEqual(['theirs 999']);
    // each conflict names both sides
    expect(fixed.at(-1)).toMatchObject({
      conflicts: [
        { skillId: TARGET, type: 'UPDATE', reason: 'content_changed', theirs: { insight: 'theirs 999' }, ours: { insight: 'ours 999' } },
      ],
    });
  });

  it('bounded recovery - a divergence found again after a crash reuses its copy and is reported once', async () => {
    const sim = new SimFs({ seed: 9 });
    const initial = makeCommit(Skillbook.empty(), [addOp('contested')]).book;
    const { store } = await openSim(sim, { initialBook: initial });
    const ours = await store.append(
      makeCommit(store.book, [{ type: 'UPDATE', section: 'context', skill_id: TARGET, insight: 'ours' }], { basis: 'store' }).commit,
    );
    expect(ours.ok).toBe(true);
    diverge(sim, 1);
    // the machine dies right after the recovery copy was written, before the ledger commit point
    sim.crashOn((op) => op.kind === 'write' && op.path.endsWith('.ledger.cohort-tmp'), {
      tear: { bytes: (_, n) => n, dirOps: (_, n) => n },
    });
    const lost = await store.append(makeCommit(store.book, [addOp('after')], { basis: 'store' }).commit);
    expect(lost.ok).toBe(false);
    expect(recoveryFiles(sim).filter((n) => !n.endsWith('.meta.json'))).toHaveLength(1);

    const { store: reopened, notices } = await openSim(sim);
    const forks = notices.filter((n) => n.type === 'store.forked');
    expect(forks).toHaveLength(1);
    expect(forks[0]).toMatchObject({ deduped: true, depth: 1 });
    expect(recoveryFiles(sim).filter((n) => !n.endsWith('.meta.json'))).toHaveLength(1);
    expect(reopened.book.get(TARGET)?.insight).toBe('ours');
    await reopened.close();
    const log = (sim.readText(`${DOC}.conflicts`) ?? '')
      .trim()
      .split('\n')
      .filter((l) => l.includes('store.forked'));
    expect(log).toHaveLength(1);
  });
});
