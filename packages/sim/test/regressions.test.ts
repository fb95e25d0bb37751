import { describe, expect, it } from 'vitest';
import { simulate } from '@cohort/sim';
import type { SimReport } from '@cohort/sim';

function violations(report: SimReport): string[] {
  return report.invariants.filter((i) => !i.ok).flatMap((i) => i.detail.map((d) => `(${i.id}) ${i.name}: ${d}`));
}

/** The store's notices that say it took in a document another program saved. */
function takenIn(report: SimReport) {
  return report.timeline.flatMap(({ event }) =>
    event.type === 'store.adopted' || event.type === 'store.rebased' || event.type === 'store.forked' ? [event] : [],
  );
}

/** What invariant 11 said of the seed's durable tree. */
function durableResume(report: SimReport): string {
  return report.invariants.find((i) => i.name === 'durable-resume')?.detail.join('\n') ?? '';
}

/** Where the seed's durable tree crashed. */
function durableCrash(report: SimReport): string[] {
  return report.timeline.flatMap(({ event }) => (event.type === 'sim.durable' && event.what === 'crash' ? [event.detail] : []));
}

/** Seeds past the range the many-seeds test runs, each of which once broke an invariant. */
describe('seeds that once broke an invariant', () => {
  it("regressions - seed 361: ACE, reloading, retires a skill Cohort added after ACE's last save; the removal comes in", async () => {
    const report = await simulate({ seed: 361 });
    expect(violations(report)).toEqual([]);
    // the seed still reaches the case: ACE's save tied its own last save with the document it loaded
    const saves = report.timeline.flatMap(({ event }) => (event.type === 'sim.external' ? [event.ops] : []));
    expect(saves).toContainEqual(['TAG context-00004', 'REMOVE context-00138', 'ADD harness-00267']);
    expect(takenIn(report).at(-1)).toMatchObject({ revision: 6, base: { source: 'cohort' }, external: { removed: ['context-00138'] } });
  });

  it('regressions - seed 1491: a resumed session merges a recorded child after the sibling spawned before it', async () => {
    const report = await simulate({ seed: 1491 });
    expect(violations(report)).toEqual([]);
    // the later sibling's removal is refused again: its draft did not hold the earlier child's merge
    expect(durableCrash(report)).toEqual(['after record 20']);
    expect(durableResume(report)).toMatch(/^after record 20: the resumed run ends with the same outcome, book, 4 audit blocks/);
  });

  it("regressions - seed 2661: a child recorded, not placed, at the crash merges before its parent's last writes (faster)", async () => {
    const report = await simulate({ seed: 2661 });
    expect(violations(report)).toEqual([]);
    expect(durableCrash(report)).toEqual(['after child outcome 1']);
    expect(durableResume(report)).toMatch(/1 merge\(s\) of outcomes recorded but not placed at the crash, none earlier than/);
  });

  it('regressions - seed 2955: what a crashed writer wrote and did not sync, taken up at the next open, survives a power failure after it', async () => {
    const report = await simulate({ seed: 2955 });
    expect(violations(report)).toEqual([]);
    // the seed still reaches the case: a process crash before the journal's sync, then a power failure in the next epoch
    const crashes = report.timeline.flatMap(({ event }) => (event.type === 'sim.crash' ? [`${event.mode} before ${event.before}`] : []));
    expect(crashes.slice(0, 2)).toEqual([
      'process before sync /db/skillbook.json.journal',
      'power before unlink /db/skillbook.json.lock.w2.tmp',
    ]);
  });

  it("regressions - seed 3169: a long-running ACE's save counts from its own last save, not from the version Cohort renumbered its skills in", async () => {
    const report = await simulate({ seed: 3169 });
    expect(violations(report)).toEqual([]);
    // the seed still reaches the case: the open renumbered ACE's new skills, and ACE, not having loaded that version, saved under its own ids
    const remapped = report.timeline.flatMap(({ event }) => (event.type === 'store.ids_remapped' ? [event.idMap] : []));
    expect(remapped[0]).toMatchObject({ 'context-00005': 'context-00133' });
    expect(takenIn(report)[1]).toMatchObject({ type: 'store.forked', revision: 6, base: { source: 'external', revision: 3 } });
  });

  it('regressions - seed 3199: a child whose turn was recorded but not its place merges as soon as its turn comes, as if it had been faster', async () => {
    const report = await simulate({ seed: 3199 });
    expect(violations(report)).toEqual([]);
    expect(durableCrash(report)).toEqual(['after record 24']);
    expect(durableResume(report)).toMatch(
      /2 merge\(s\) of outcomes recorded but not placed at the crash, none earlier than the records allow/,
    );
  });

  it('regressions - seed 3764: a body resumed is held before its write by a recorded merge behind a failed child, as in the run it resumes', async () => {
    const report = await simulate({ seed: 3764 });
    expect(violations(report)).toEqual([]);
    expect(durableCrash(report)).toEqual(['after child outcome 4']);
  });

  it('regressions - seed 699: a child left running by its aborted parent, cut off by the crash, is told no id that counts', async () => {
    const report = await simulate({ seed: 699 });
    expect(violations(report)).toEqual([]);
    expect(durableCrash(report)).toEqual(['after child outcome 1']);
    expect(durableResume(report)).toMatch(/the resumed run ends with the same outcome, book, 2 audit blocks and 2 told ids/);
  });
});
