import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import type { AppliedOp } from '@cohort/skillbook';
import { seededBook, withLeases } from './utils/books.ts';

/** A scripted session: writes, children, and maybe a crash after some step. */
interface Script {
  readonly steps: readonly Step[];
  readonly crashAfter: number | null;
}
type Step =
  | { readonly kind: 'add'; readonly issue: string }
  | { readonly kind: 'update'; readonly target: number; readonly insight: string }
  | { readonly kind: 'tag'; readonly target: number }
  | { readonly kind: 'remove'; readonly target: number }
  | { readonly kind: 'yield' }
  | { readonly kind: 'spawn'; readonly child: Script };

const leaf = (depth: number): fc.Arbitrary<Script> =>
  fc.record({
    steps: fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('add' as const), issue: fc.string({ minLength: 1, maxLength: 6 }) }),
        fc.record({ kind: fc.constant('update' as const), target: fc.nat(6), insight: fc.string({ minLength: 1, maxLength: 6 }) }),
        fc.record({ kind: fc.constant('tag' as const), target: fc.nat(6) }),
        fc.record({ kind: fc.constant('remove' as const), target: fc.nat(6) }),
        fc.constant({ kind: 'yield' as const }),
        ...(depth < 2 ? [fc.record({ kind: fc.constant('spawn' as const), child: fc.constant(null).chain(() => leaf(depth + 1)) })] : []),
      ),
      { maxLength: depth === 0 ? 8 : 5 },
    ),
    crashAfter: fc.option(fc.nat(6), { freq: 3 }),
  });

/** What each session's draft saw, in order: its own applied ops, and merged children. */
type LogItem = { readonly own: readonly AppliedOp[] } | { readonly child: string };

function runScript(script: Script, log: Map<string, LogItem[]>) {
  return async (s: Session): Promise<void> => {
    const mine: LogItem[] = log.get(s.id) ?? [];
    log.set(s.id, mine);
    const pending: Promise<unknown>[] = [];
    const existing = () => [...s.book.skills()].map((k) => k.id);
    let index = 0;
    for (const step of script.steps) {
      if (script.crashAfter !== null && index++ === script.crashAfter) throw new Error(`scripted crash in ${s.id}`);
      const target = (n: number) => existing()[n % Math.max(1, existing().length)] ?? 'context-00001';
      const op =
        step.kind === 'add'
          ? { type: 'ADD', section: 'harness', issue: step.issue, insight: 'i' }
          : step.kind === 'update'
            ? { type: 'UPDATE', section: 'context', skill_id: target(step.target), insight: step.insight }
            : step.kind === 'tag'
              ? { type: 'TAG', section: 'context', skill_id: target(step.target), metadata: { delta: 1 } }
              : step.kind === 'remove'
                ? { type: 'REMOVE', section: 'context', skill_id: target(step.target) }
                : null;
      if (op) {
        const result = s.applyBatch({ operations: [op] });
        if (result.ok && result.applied.length > 0) mine.push({ own: result.applied });
      } else if (step.kind === 'spawn') {
        pending.push(s.spawn(runScript(step.child, log)));
      } else {
        await Promise.resolve();
      }
    }
    await Promise.all(pending);
  };
}

describe('serialisability', () => {
  it("the book equals the serial application of exactly the committed sessions' ops, in merge order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(leaf(0), { minLength: 1, maxLength: 3 }), async (roots) => {
        const initial = seededBook();
        const rt = createRuntime({ book: initial });
        const log = new Map<string, LogItem[]>();
        const rootOrder: string[] = [];
        rt.events$.subscribe((e) => {
          if (e.type !== 'session.merged') return;
          if (e.into === 'root') rootOrder.push(e.sessionId);
          else {
            const items = log.get(e.into) ?? [];
            log.set(e.into, items);
            items.push({ child: e.sessionId });
          }
        });
        await Promise.all(roots.map((script) => rt.run(runScript(script, log))));
        // the reference model: flatten each merged session's draft log, serially
        const flatten = (id: string): AppliedOp[] =>
          (log.get(id) ?? []).flatMap((item) => ('own' in item ? [...item.own] : flatten(item.child)));
        let expected = initial;
        for (const id of rootOrder) {
          const ops = flatten(id);
          if (ops.length === 0) continue;
          const r = expected.replay(ops);
          if (!r.ok) throw new Error(r.error.message);
          expected = r.book;
        }
        expect(rt.book.toJSON()).toBe(withLeases(expected, rt.book).toJSON());
        expect(rt.liveSessions).toBe(0);
        const allIds = [...rt.book.skills()].map((k) => k.id);
        expect(new Set(allIds).size).toBe(allIds.length);
        await rt.close();
      }),
      { numRuns: 150 },
    );
  });
});
