import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Clock, Runtime, Session, SessionOutcome } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, MemoryStore, SimFs, describeOpenError, replayHistory } from '@cohort/store';
import type { SimMount } from '@cohort/store';
import { readHistory } from '@cohort/store/testing';
import { PROTOTYPE_NAMES } from '../packages/store/test/utils/prototypeNames.ts';

const PROTO = PROTOTYPE_NAMES;
/** The same scenario with ids no object knows (and not in ACE's `<section>-<n>` form, as the others): the control. */
const PLAIN = PROTO.map((_, i) => `plain${'abcdefgh'[i] ?? i}`);
const DOC = '/db/skillbook.json';
/** Every timestamp the same in both runs, so books compare byte for byte. */
const clock: Clock = {
  now: () => Date.UTC(2026, 4, 1),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as never),
};

interface Op {
  readonly type: 'ADD' | 'UPDATE' | 'TAG' | 'REMOVE';
  readonly id: number;
  readonly via: 'tool' | 'batch';
  readonly text: string;
}
/** A root session: its own ops, then children running side by side (their commits merge into it). */
interface RootPlan {
  readonly ops: readonly Op[];
  readonly children: readonly (readonly Op[])[];
}

const opArb = fc.record({
  type: fc.constantFrom('ADD', 'ADD', 'UPDATE', 'TAG', 'REMOVE'),
  id: fc.nat(PROTO.length - 1),
  via: fc.constantFrom('tool', 'batch'),
  text: fc.constantFrom('a', 'b'),
}) as fc.Arbitrary<Op>;
const rootArb = fc.record({
  ops: fc.array(opArb, { maxLength: 3 }),
  children: fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
});

function raw(op: Op, id: string): Record<string, unknown> {
  if (op.type === 'ADD') return { type: 'ADD', section: 'harness', skill_id: id, issue: `issue ${op.text}`, insight: 'x' };
  if (op.type === 'UPDATE') return { type: 'UPDATE', skill_id: id, insight: `changed ${op.text}` };
  if (op.type === 'TAG') return { type: 'TAG', skill_id: id, metadata: { delta: op.text === 'a' ? 1 : -1 } };
  return { type: 'REMOVE', skill_id: id };
}

/** One op through a tool or a batch; what the session saw, with its ids named back to their index. */
async function write(s: Session, op: Op, names: readonly string[]): Promise<string> {
  const id = names[op.id] ?? '';
  if (op.via === 'batch') {
    const r = s.applyBatch({ operations: [raw(op, id)] });
    return r.ok ? `applied ${r.applied.length} skipped ${r.skipped.length}` : `refused ${r.error.code}`;
  }
  const r =
    op.type === 'ADD'
      ? await s.tools.add_skill({ section: 'harness', skill_id: id, issue: `issue ${op.text}`, insight: 'x' })
      : op.type === 'UPDATE'
        ? await s.tools.update_skill({ skill_id: id, insight: `changed ${op.text}` })
        : op.type === 'TAG'
          ? await s.tools.tag_skill({ skill_id: id, tag: op.text === 'a' ? 'helpful' : 'harmful' })
          : await s.tools.remove_skill({ skill_id: id });
  return 'ok' in r ? 'ok' : r.error.split(id).join('<id>');
}

const summary = (o: SessionOutcome): string =>
  o.status === 'committed' ? `committed ${o.added.length} ${o.dropped.length}` : `failed ${o.failure.kind}`;

async function runRoots(rt: Runtime, roots: readonly RootPlan[], names: readonly string[]): Promise<unknown[]> {
  const outcomes = await Promise.all(
    roots.map((plan) =>
      rt.run(async (root) => {
        const seen: string[] = [];
        for (const op of plan.ops) seen.push(await write(root, op, names));
        const children = await Promise.all(
          plan.children.map((ops) =>
            root.spawn(async (child) => {
              const out: string[] = [];
              for (const op of ops) out.push(await write(child, op, names));
              return out;
            }),
          ),
        );
        return { seen, children: children.map((c) => [summary(c), c.status === 'committed' ? c.output : null]) };
      }),
    ),
  );
  return outcomes.map((o) => [summary(o), o.status === 'committed' ? o.output : null]);
}

/** The book's skills with their ids named back to indices, in that order: comparable across the two spellings. */
function skills(book: Skillbook, names: readonly string[]): string {
  const index = new Map(names.map((n, i) => [n, i]));
  return JSON.stringify(
    [...book.skills()].map((k) => ({ ...k, id: index.get(k.id) ?? k.id })).sort((a, b) => String(a.id).localeCompare(String(b.id))),
  );
}

async function openFile(mount: SimMount): Promise<FileStore> {
  const opened = await FileStore.open(DOC, {
    fs: mount,
    process: mount.process,
    clock,
    idleCheckpointMs: 0,
    checkpointEvery: 3,
    checkpointJournalRatio: 0,
  });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

/** ACE loads the document, adds a skill under `added` (when it has none), changes `changed`, and saves. */
function aceEdits(sim: SimFs, added: string, changed: string): void {
  const book = Skillbook.fromJSON(sim.readText(DOC) ?? '');
  const operations = [
    ...(book.has(added) ? [] : [{ type: 'ADD', section: 'context', skill_id: added, issue: 'by ACE', insight: 'ace' }]),
    ...(book.get(changed)?.active ? [{ type: 'UPDATE', skill_id: changed, insight: 'edited by ACE' }] : []),
  ];
  const r = book.applyBatch({ operations }, { clock });
  if (!r.ok) throw new Error(r.error.message);
  sim.write(DOC, r.book.toJSON());
}

/** Runs the whole scenario with one spelling of the ids: what every session saw, and each store's book and history. */
async function scenario(roots: readonly RootPlan[], names: readonly string[], ace: { added: number; changed: number }) {
  const memory = new MemoryStore(Skillbook.empty(), { clock });
  const onMemory = createRuntime({ store: memory, clock, runtimeId: 'mem', conflicts: 'rebase' });
  const seenMemory = await runRoots(onMemory, roots, names);
  const memoryBook = skills(onMemory.book, names);
  const memoryReplay = replayHistory(await readHistory(memory));
  await onMemory.close();

  const sim = new SimFs({ seed: 1 });
  const onFile = createRuntime({ store: await openFile(sim.mount()), clock, runtimeId: 'file', conflicts: 'rebase' });
  const seenFile = await runRoots(onFile, roots, names);
  await onFile.close();
  // the external-writer path, then a reopen, then sessions again, then a reopen
  aceEdits(sim, names[ace.added] ?? '', names[ace.changed] ?? '');
  const again = createRuntime({ store: await openFile(sim.mount()), clock, runtimeId: 'again', conflicts: 'rebase' });
  const seenAgain = await runRoots(again, roots.slice(0, 1), names);
  await again.close();
  const last = await openFile(sim.mount());
  const fileBook = skills(last.book, names);
  const fileReplay = replayHistory(await readHistory(last));
  await last.close();
  return {
    seen: { seenMemory, seenFile, seenAgain },
    memoryBook,
    fileBook,
    replays: [
      memoryReplay.ok ? skills(memoryReplay.book, names) : memoryReplay.message,
      fileReplay.ok ? skills(fileReplay.book, names) : fileReplay.message,
    ],
  };
}

describe('any string is an id, through the runtime', () => {
  it('prototype member names as skill ids: tools, batches, merges, both stores, an ACE edit and reopen behave exactly as plain ids (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rootArb, { minLength: 1, maxLength: 3 }),
        fc.nat(PROTO.length - 1),
        fc.nat(PROTO.length - 1),
        async (roots, added, changed) => {
          const proto = await scenario(roots, PROTO, { added, changed });
          const plain = await scenario(roots, PLAIN, { added, changed });
          expect(proto).toEqual(plain);
          expect(JSON.stringify(proto.seen)).not.toContain('invalid_commit');
          expect(proto.replays).toEqual([proto.memoryBook, proto.fileBook]);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
