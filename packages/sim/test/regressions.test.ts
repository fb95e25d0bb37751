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
});
