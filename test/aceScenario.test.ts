import { describe, expect, it } from 'vitest';
import { createRuntime, createRecurseTool, SessionFailureSchema, SimulatedClock } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { ids, issues, replayAudit, withLeases, seededBook } from './utils/books.ts';

/**
 * ACE's bug, ported: a parent calls `recurse` twice in one turn. Child A adds a1, a2 and
 * updates the seed skill; child B adds b1-leaked and then crashes. In ACE, B's skill stays in
 * the shared book, the operations interleave, and the parent sees a prose string.
 */
describe('the ACE recurse scenario', () => {
  async function runScenario() {
    const clock = new SimulatedClock();
    const initial = seededBook();
    const rt = createRuntime({ book: initial, clock });
    const childA = async (s: Session) => {
      await s.tools.add_skill({ section: 'context', issue: 'a1', insight: 'from A' });
      await s.sleep(10);
      await s.tools.add_skill({ section: 'context', issue: 'a2', insight: 'from A' });
      await s.sleep(10);
      await s.tools.update_skill({ skill_id: 'context-00001', insight: 'seed, improved by A' });
      return 'A done';
    };
    const childB = async (s: Session) => {
      await s.sleep(5);
      await s.tools.add_skill({ section: 'context', issue: 'b1-leaked', insight: 'from B' });
      await s.sleep(10);
      throw new Error('simulated sandbox/tool crash');
    };
    const run = rt.run(async (s) => Promise.all([s.spawn(childA, { name: 'A' }), s.spawn(childB, { name: 'B' })]));
    const outcome = await clock.settle(run);
    return { rt, initial, outcome };
  }

  it('keeps nothing of the crashed child and all of the committed one', async () => {
    const { rt, outcome } = await runScenario();
    expect(outcome.status).toBe('committed');
    expect(issues(rt.book)).toEqual(['seed issue', 'a1', 'a2']);
    expect(rt.book.get('context-00001')?.insight).toBe('seed, improved by A');
    expect(issues(rt.book)).not.toContain('b1-leaked');
  });

  it("puts A's operations in one contiguous audit entry attributed to A", async () => {
    const { rt, initial } = await runScenario();
    expect(rt.audit).toHaveLength(1);
    const [entry] = rt.audit;
    expect(entry?.path).toHaveLength(2);
    expect(entry?.ops.map((op) => op.type)).toEqual(['ADD', 'ADD', 'UPDATE']);
    expect(withLeases(replayAudit(initial, rt.audit), rt.book).toJSON()).toBe(rt.book.toJSON());
  });

  it("reports B's crash as a structured failure value, not a string", async () => {
    const { outcome } = await runScenario();
    if (outcome.status !== 'committed') throw new Error('root did not commit');
    const [a, b] = outcome.output;
    expect(a?.status).toBe('committed');
    if (b?.status !== 'failed') throw new Error('B did not fail');
    expect(SessionFailureSchema.parse(b.failure)).toEqual(b.failure);
    expect(b.failure.kind).toBe('crashed');
    expect(b.failure.error?.message).toBe('simulated sandbox/tool crash');
    expect(b.failure.discarded.ops).toBe(1);
  });

  it('gives the model one line per child through the recurse tool', async () => {
    const rt = createRuntime({ book: seededBook() });
    const recurse = createRecurseTool(async (child, { task }) => {
      if (task === 'crash') {
        await child.tools.add_skill({ section: 'context', issue: 'b1-leaked', insight: 'x' });
        throw new Error('simulated sandbox/tool crash');
      }
      const added = await child.tools.add_skill({ section: 'context', issue: task, insight: 'y' });
      return JSON.stringify(added);
    });
    const outcome = await rt.run(async (s) =>
      recurse.call(s, {
        tasks: [
          { task: 'a1', name: 'A' },
          { task: 'crash', name: 'B' },
        ],
      }),
    );
    if (outcome.status !== 'committed' || 'error' in outcome.output) throw new Error('recurse failed');
    const lines = outcome.output.text.split('\n');
    expect(lines[0]).toMatch(/^- A: committed \(added context-0000\d\)/);
    expect(lines[1]).toBe('- B: failed (crashed): simulated sandbox/tool crash');
    expect(outcome.output.outcomes.map((o) => o.status)).toEqual(['committed', 'failed']);
    expect(ids(rt.book)).toHaveLength(2);
    await rt.close();
  });
});
