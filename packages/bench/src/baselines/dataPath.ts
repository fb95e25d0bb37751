import { Draft, createSkillTools, defaultLimits, mergeCommit, operationLimits, systemClock } from '@cohort/runtime';
import type { Commit, SessionId, SessionBatchResult } from '@cohort/runtime';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import type { OperationFields, Skill } from '@cohort/skillbook';
import type { Workload } from '../peers/Workload.ts';
import { crashesAt, insertOf, verify } from '../peers/Workload.ts';

/** One session's data, without its actor: a private draft and the tools that write to it. */
interface DataSession {
  readonly draft: Draft;
  readonly tools: ReturnType<typeof createSkillTools>;
}

type Allocator = ReturnType<typeof createIdAllocator>;

function open(start: Skillbook, id: string, allocator: Allocator): DataSession {
  const draft = new Draft(start, { sessionId: id as SessionId, path: [id as SessionId] });
  // the runtime's write path: tool arguments and batches checked against the limits
  const options = { clock: systemClock, allocateId: allocator.allocate, limits: operationLimits(defaultLimits) };
  const host = {
    limits: defaultLimits,
    endedReason: () => null,
    book: { get: (skillId: string): Skill | undefined => draft.get(skillId) },
    write(raw: unknown): SessionBatchResult {
      const r = draft.write(raw, options);
      return r.ok ? { ok: true, applied: r.applied, skipped: r.skipped } : { ok: false, error: r.error };
    },
    // as the runtime's sessions do: a tool writes its one op without a batch around it
    writeOperation: (op: OperationFields) => draft.writeOperation(op, options),
  };
  return { draft, tools: createSkillTools(host) };
}

/** Runs the child at `path` and its children; resolves with its commit, rejects when it crashes. */
async function child(w: Workload, path: readonly number[], start: Skillbook, allocator: Allocator): Promise<Commit> {
  const s = open(start, `d${path.join('.')}`, allocator);
  for (let j = 0; j < w.k; j++) await s.tools.add_skill(insertOf(path, j));
  await children(w, path, s, allocator);
  if (crashesAt(path)) throw new Error('crash');
  return s.draft.toCommit(undefined);
}

/** Fans out the children of `parent` and merges each commit into its draft as it arrives; a crashed child's is dropped. */
async function children(w: Workload, path: readonly number[], parent: DataSession, allocator: Allocator): Promise<void> {
  const n = w.fanOut[path.length] ?? 0;
  if (n === 0) return;
  const start = parent.draft.book;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      child(w, [...path, i], start, allocator).then(
        (commit) => {
          const merged = parent.draft.merge(commit, 'reject');
          if (!merged.ok) throw new Error(`data path: a merge was refused: ${merged.message}`);
        },
        () => undefined,
      ),
    ),
  );
}

/**
 * W(n, k) through Cohort's data path alone, with no actor, runtime or store: each child a
 * private `Draft` written through the same `add_skill` tools (zod validation, ACE ids and
 * timestamps, a frozen skill, an applied op, the audit), its commit merged into its parent's
 * draft with the conflict check when it returns, a crashed child's draft dropped, and the
 * parent's commit merged into the book. What Cohort's isolation and validation cost before
 * any actor steps; with the session protocol alone (row 2f), it bounds from below what a
 * fan-out of xstate sessions that validate every write can cost. Resolves with the run's ms.
 */
export async function dataPathAlone(w: Workload): Promise<number> {
  const t0 = performance.now();
  const book = Skillbook.empty();
  const allocator = createIdAllocator(book.nextId);
  const root = open(book, 'd', allocator);
  await children(w, [], root, allocator);
  const merged = mergeCommit(book, root.draft.toCommit(undefined), 'reject');
  const ms = performance.now() - t0;
  if (!merged.ok) throw new Error(`data path: the root merge was refused: ${merged.message}`);
  const verdict = verify(w, merged.book.skills());
  if (!verdict.ok)
    throw new Error(`data path: ${verdict.survived} of ${verdict.expected} inserts survived, ${verdict.crashedKept} crashed kept`);
  return ms;
}
