import type { Session, SessionBody, SessionOutcome } from '@cohort/runtime';

/**
 * The children of the planner in the tracing tests, spawned from `s` in this order: `writer` and
 * `crasher` as given, `sleeper` (runs out of its 20 ms), and `late`, which updates `skillId`
 * once `writer` has ended and is rejected with a conflict (the writer changed it first).
 */
export function spawnPlannerChildren(
  s: Session,
  skillId: string,
  bodies: { readonly writer: SessionBody; readonly crasher: SessionBody },
): Promise<SessionOutcome<unknown>>[] {
  const writer = s.spawn(bodies.writer, { name: 'writer' });
  const crasher = s.spawn(bodies.crasher, { name: 'crasher' });
  const sleeper = s.spawn((z) => new Promise((resolve) => z.signal.addEventListener('abort', resolve)), {
    name: 'sleeper',
    timeoutMs: 20,
  });
  const late = s.spawn(
    async (l) => {
      await writer;
      await l.tools.update_skill({ skill_id: skillId, insight: 'never retry' });
    },
    { name: 'late' },
  );
  return [writer, crasher, sleeper, late];
}
