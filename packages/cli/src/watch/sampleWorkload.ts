import type { Session } from '@cohort/runtime';

/** How the sample workload of `cohort watch` runs. */
export interface SampleWorkloadOptions {
  /** Workers the planner starts in parallel (each a child session). */
  readonly workers: number;
  /** One time unit of the workers' simulated thinking, in ms of the real clock. */
  readonly paceMs: number;
}

/**
 * The workload `cohort watch` shows: a planner that writes a plan skill and starts `workers`
 * child sessions in parallel. Each worker "thinks" (sleeps), adds a skill and tags the plan;
 * every third worker asks a helper of its own; every fifth crashes after its writes (a cause
 * chain of two errors); the sixth runs out of time; the fourth edits the plan skill that the
 * planner's reviewer, running beside it, changed first, and is rejected with a conflict. Every outcome a user meets, live.
 */
export function sampleWorkload(options: SampleWorkloadOptions): (planner: Session) => Promise<unknown> {
  const { workers, paceMs } = options;
  return async (planner) => {
    const plan = await planner.tools.add_skill({
      section: 'harness',
      issue: 'split the review into parallel passes',
      insight: 'one worker per area',
    });
    if (!('ok' in plan)) throw new Error(`the plan skill was refused: ${plan.error}`);
    const reviewer = planner.spawn(
      async (s) => {
        await s.sleep(paceMs / 2);
        await s.tools.update_skill({ skill_id: plan.skill_id, insight: 'one worker per area, reviewed once' });
      },
      { name: 'reviewer' },
    );
    const started = Array.from({ length: workers }, (_, i) =>
      planner.spawn(worker(i + 1, plan.skill_id, paceMs), {
        name: `worker ${i + 1}`,
        ...(i + 1 === 6 ? { timeoutMs: 3 * paceMs } : {}),
      }),
    );
    return (await Promise.all([reviewer, ...started])).map((o) => o.status);
  };
}

function worker(n: number, planId: string, paceMs: number): (s: Session) => Promise<string> {
  return async (s) => {
    await s.sleep(paceMs * (1 + (n % 4)));
    await s.tools.add_skill({
      section: 'context',
      issue: `finding of worker ${n}`,
      insight: `what worker ${n} learned`,
      keywords: ['review'],
    });
    if (n % 3 === 0) {
      await s.spawn(
        async (h) => {
          await h.sleep(paceMs);
          await h.tools.add_skill({ section: 'context', issue: `detail found by the helper of worker ${n}`, insight: 'checked twice' });
        },
        { name: `helper of worker ${n}` },
      );
    }
    await s.tools.tag_skill({ skill_id: planId, tag: 'helpful' });
    if (n === 4) await s.tools.update_skill({ skill_id: planId, insight: `worker ${n}'s own version of the plan` });
    if (n === 6) await s.sleep(paceMs * 10); // a tool that never answers: the time limit stops it
    if (n % 5 === 0) throw new Error(`worker ${n}: the tool call failed`, { cause: new Error('sandbox exited with code 137') });
    return `worker ${n} done`;
  };
}
