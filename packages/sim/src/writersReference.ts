import type { Skillbook } from '@cohort/skillbook';
import type { EpochRecord } from './EpochRecord.ts';
import type { ExpectedBlock, Reference } from './referenceModel.ts';
import { segmentsOf, withoutDropped, withoutNoOps } from './referenceModel.ts';

/**
 * The reference model of several runtimes on one store: every writer's root merges in the
 * store's revision order, each one's history replayed serially on the book they all started
 * from. Each writer's reference holds its own blocks and the one book; where a commit that
 * changed nothing was acknowledged at the revision of another (a store gives it the current
 * one), the one that changed the book comes first.
 *
 * @example
 * const [first, second] = buildWritersReference([recordA, recordB], initial);
 */
export function buildWritersReference(records: readonly EpochRecord[], initial: Skillbook): Reference[] {
  let book = initial;
  const blocks: ExpectedBlock[][] = records.map(() => []);
  const errors: string[] = [];
  const merges = records.flatMap((record, w) =>
    record.rootMerges.map((merge) => ({
      w,
      merge,
      segments: withoutDropped(segmentsOf(record, merge.sessionId, new Set()), merge.dropped),
    })),
  );
  const revisions = [...new Set(merges.map((m) => m.merge.revision))].sort((a, b) => a - b);
  for (const revision of revisions) {
    // of the merges at one revision, the one that changes the book goes first
    const group = merges.filter((m) => m.merge.revision === revision);
    const changes = (m: (typeof group)[number]) => (withoutNoOps(book, m.segments).length > 0 ? 0 : 1);
    for (const m of group.sort((a, b) => changes(a) - changes(b))) {
      const segments = withoutNoOps(book, m.segments);
      blocks[m.w]?.push({ rootId: m.merge.sessionId, revision, segments });
      const ops = segments.flatMap((seg) => seg.ops);
      if (ops.length === 0) continue;
      const replayed = book.replay(ops);
      if (replayed.ok) book = replayed.book;
      else
        errors.push(`the committed ops of root ${m.merge.sessionId} (writer ${m.w + 1}) do not replay serially: ${replayed.error.message}`);
    }
  }
  return records.map((_, w) => ({ book, blocks: blocks[w] ?? [], errors: w === 0 ? errors : [] }));
}
