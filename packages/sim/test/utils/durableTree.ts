import { SimulatedClock } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import type { DurableCrash, SessionPlan } from '@cohort/sim';
import { runDurable } from '../../src/durable/runDurable.ts';
import type { DurableObservation } from '../../src/durable/runDurable.ts';
import type { ProcessMutation } from '../../src/durable/SimProcess.ts';
import { checkDurableResume, checkRecordedOnce } from '../../src/invariants/checkDurable.ts';
import type { CheckInput } from '../../src/invariants/verdict.ts';

/** Runs the durable tree `root` on a book of one seed skill, crashed at `crash` (and under `mutation`), on a simulated clock. */
export async function runTree(root: SessionPlan, crash: DurableCrash, mutation: ProcessMutation = null): Promise<DurableObservation> {
  const clock = new SimulatedClock(0);
  const seeded = Skillbook.empty().applyBatch(
    { operations: [{ type: 'ADD', section: 'context', issue: 'seed', insight: 'seed' }] },
    { clock },
  );
  if (!seeded.ok) throw new Error('no seed book');
  const initial = seeded.book;
  const seedIds = [...initial.skills()].map((s) => s.id);
  return runDurable({ root, crash }, { clock, initial, seedIds, conflicts: 'reject', epoch: 1, mutation, push: () => 0 });
}

/** What the durable invariants say of `observed`: each one's findings (none: it holds). */
export function checkTree(observed: DurableObservation): { resume: readonly string[]; once: readonly string[] } {
  const input = {
    observations: { epochs: [], reopens: [], writers: null, durable: observed },
    references: [],
    unhandled: [],
  } as CheckInput;
  const resume = checkDurableResume(input);
  const once = checkRecordedOnce(input);
  return { resume: resume.ok ? [] : resume.detail, once: once.ok ? [] : once.detail };
}
