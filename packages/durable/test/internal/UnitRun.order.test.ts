import { describe, expect, it } from 'vitest';
import type { Session, SessionOutcome } from '@cohort/runtime';
import { recordStep } from '../../src/index.ts';
import { Bodies } from '../../src/Bodies.ts';
import { runUnit } from '../../src/internal/UnitRun.ts';
import type { UnitHost } from '../../src/internal/UnitRun.ts';
import type { UnitResult, UnitSpec } from '../../src/UnitSpec.ts';
import { memoryHost } from '../utils/memoryHost.ts';

/** A host whose child units run here, each one's result recorded once: a child recorded before is not run again. */
function recordingHost(bodies: Bodies): UnitHost {
  const host: UnitHost = memoryHost(bodies, (spec: UnitSpec) =>
    host.journal.recorded<UnitResult>(spec.unitId, 'result', () => runUnit(host, spec)),
  );
  return host;
}

/** A latch: `open` lets whoever waits on `opened` go on. */
function latch(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const spec = (unitId: string): UnitSpec => ({ unitId, body: 'root', name: 'root', input: null, view: { baseRevision: 0, ops: [] } });

const status = (o: SessionOutcome): string => (o.status === 'failed' ? `failed (${o.failure.kind})` : o.status);

/** A unit's audit as `name: op op`, in order. */
const audit = (r: UnitResult): string[] =>
  r.status === 'committed'
    ? r.entries.map((e) => `${e.name ?? e.sessionId}: ${e.ops.map((op) => `${op.type} ${op.insight}`).join(', ')}`)
    : [];

describe('runUnit: where a recorded child merges among its parent’s own writes', () => {
  it('a unit run again merges a recorded child after the same own writes as before, and refuses it again when it was refused', async () => {
    // the child ends only after the root's second write (on the first run; a recorded child does not run again)
    const rootWrote = latch();
    const child = async (s: Session<string>) => {
      await rootWrote.opened;
      const id = s.input;
      return s.tools.update_skill({ skill_id: id, insight: 'by the child' });
    };
    const root = async (s: Session) => {
      const added = await s.tools.add_skill({ section: 'harness', issue: 'shared', insight: 'by the root' });
      if (!('ok' in added)) throw new Error(added.error);
      const spawned = s.spawn(child, { input: added.skill_id, name: 'child' });
      await s.sleep(5);
      await s.tools.update_skill({ skill_id: added.skill_id, insight: 'again by the root' });
      rootWrote.open();
      return status(await spawned);
    };
    const host = recordingHost(new Bodies({ root, child }));
    const first = await runUnit(host, spec('run-order'));
    // the root's update came first: the child's update of the same skill conflicts
    expect(first).toMatchObject({ status: 'committed', output: 'failed (conflict)' });
    expect(audit(first)).toEqual(['root: ADD by the root, UPDATE again by the root']);
    // run again (a crash after the merge): the child's recorded outcome is there at once
    const again = await runUnit(host, spec('run-order'));
    expect(again).toMatchObject({ status: 'committed', output: 'failed (conflict)' });
    expect(audit(again)).toEqual(audit(first));
  });

  it('a unit run again does not let a recorded step overtake a recorded merge that came before the next own write', async () => {
    const child = async (s: Session<string>) => s.tools.update_skill({ skill_id: s.input, insight: 'by the child' });
    const root = async (s: Session) => {
      const added = await s.tools.add_skill({ section: 'harness', issue: 'shared', insight: 'by the root' });
      if (!('ok' in added)) throw new Error(added.error);
      const spawned = s.spawn(child, { input: added.skill_id, name: 'child' });
      // the first run's step takes long enough for the child to merge first; run again, it is recorded
      await recordStep(s, 'think', async () => {
        await spawned;
        return 'thought';
      });
      await s.tools.update_skill({ skill_id: added.skill_id, insight: 'again by the root' });
      return status(await spawned);
    };
    const host = recordingHost(new Bodies({ root, child }));
    const first = await runUnit(host, spec('run-step'));
    expect(first).toMatchObject({ status: 'committed', output: 'committed' });
    expect(audit(first)).toEqual(['root: ADD by the root', 'child: UPDATE by the child', 'root: UPDATE again by the root']);
    const again = await runUnit(host, spec('run-step'));
    expect(again).toMatchObject({ status: 'committed', output: 'committed' });
    expect(audit(again)).toEqual(audit(first));
  });

  it('a unit run again merges a recorded child after the same spawns as before: a later sibling starts on the same draft', async () => {
    // the first child ends only once its sibling is spawned; the sibling's update waits for the first child's merge
    const siblingSpawned = latch();
    const firstMerged = latch();
    const first = async (s: Session<string>) => {
      await siblingSpawned.opened;
      return s.tools.update_skill({ skill_id: s.input, insight: 'by the first child' });
    };
    const second = async (s: Session<string>) => {
      await firstMerged.opened;
      return s.tools.update_skill({ skill_id: s.input, insight: 'by the second child' });
    };
    const root = async (s: Session) => {
      const added = await s.tools.add_skill({ section: 'harness', issue: 'shared', insight: 'by the root' });
      if (!('ok' in added)) throw new Error(added.error);
      const a = s.spawn(first, { input: added.skill_id, name: 'first' });
      await s.sleep(1);
      const b = s.spawn(second, { input: added.skill_id, name: 'second' });
      siblingSpawned.open();
      const statuses = [status(await a)];
      firstMerged.open();
      return statuses.concat(status(await b));
    };
    const host = recordingHost(new Bodies({ root, first, second }));
    const once = await runUnit(host, spec('run-spawns'));
    // the second child started on the draft before the first one's merge: its update of the same skill conflicts
    expect(once).toMatchObject({ status: 'committed', output: ['committed', 'failed (conflict)'] });
    expect(audit(once)).toEqual(['root: ADD by the root', 'first: UPDATE by the first child']);
    // run again: both outcomes are there at once; the first merges only after the second's spawn, as before
    const again = await runUnit(host, spec('run-spawns'));
    expect(again).toMatchObject({ status: 'committed', output: ['committed', 'failed (conflict)'] });
    expect(audit(again)).toEqual(audit(once));
  });
});
