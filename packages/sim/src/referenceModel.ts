import type { AppliedOp, Conflict, Skillbook } from '@cohort/skillbook';
import type { EpochRecord } from './EpochRecord.ts';
import { remapOps, remapsOf, takeIn } from './external/externalChanges.ts';
import type { TakenIn } from './external/externalChanges.ts';

/** A run of one session's own ops, as it should appear in an audit. */
export interface Segment {
  readonly sessionId: string;
  readonly ops: readonly AppliedOp[];
}

/** One merge into the root, as the reference model expects it to land. */
export interface ExpectedBlock {
  readonly rootId: string;
  readonly revision: number;
  readonly segments: readonly Segment[];
}

/** The reference model of one epoch. */
export interface Reference {
  /** The serial application, in merge order, of exactly the committed sessions' ops. */
  readonly book: Skillbook;
  readonly blocks: readonly ExpectedBlock[];
  /** Committed ops that did not replay on the reference book (each one a violation). */
  readonly errors: readonly string[];
}

/**
 * Builds the reference model of an epoch from the observations alone, with nothing but the
 * Skillbook: each committed session's draft history is its own applied ops and, where a
 * child merged, that child's history (less the ops the merge reported dropped); the book is
 * the initial book with every root commit's history replayed serially, in merge order (a
 * REMOVE of a skill removed already changes nothing, and no audit holds it) — and, in a run
 * where another program saved the document, the changes the store took in from it (see
 * {@link buildReferenceTakingIn}).
 *
 * @example
 * const ref = buildReference(record);
 * ref.book.toJSON() === record.final?.book.toJSON(); // invariant 1
 */
export function buildReference(record: EpochRecord): Reference {
  return buildReferenceTakingIn(record, []);
}

/**
 * {@link buildReference} for a run where another program saved the document: the changes the
 * store took in from it (`takenIn`) are applied too, each at the revision it produced, and a
 * root commit's ADD ids are the ones the store gave them.
 *
 * @example
 * const ref = buildReferenceTakingIn(record, takenInDuring(observations, 0));
 */
export function buildReferenceTakingIn(record: EpochRecord, takenIn: readonly TakenIn[]): Reference {
  let book = record.initial;
  const blocks: ExpectedBlock[] = [];
  const errors: string[] = [];
  const remaps = takenIn.length > 0 ? remapsOf(record) : new Map<string, ReadonlyMap<string, string>>();
  const external = [...takenIn];
  for (const merge of record.rootMerges) {
    while (external[0] && external[0].revision < merge.revision) book = takeIn(book, (external.shift() as TakenIn).commit);
    const idMap = remaps.get(`${merge.sessionId}\u0000${merge.revision}`);
    const remapped = withoutDropped(segmentsOf(record, merge.sessionId, new Set()), merge.dropped).map((seg) => ({
      ...seg,
      ops: remapOps(seg.ops, idMap),
    }));
    const segments = withoutNoOps(book, remapped);
    blocks.push({ rootId: merge.sessionId, revision: merge.revision, segments });
    const ops = segments.flatMap((s) => s.ops);
    if (ops.length === 0) continue;
    const replayed = book.replay(ops);
    if (replayed.ok) book = replayed.book;
    else errors.push(`the committed ops of root ${merge.sessionId} do not replay serially: ${replayed.error.message}`);
  }
  for (const rest of external) book = takeIn(book, rest.commit);
  return { book, blocks, errors };
}

/** A session's draft history as segments: its own writes, and its merged children's, in order. */
export function segmentsOf(record: EpochRecord, sessionId: string, seen: Set<string>): Segment[] {
  if (seen.has(sessionId)) return [];
  seen.add(sessionId);
  const out: Segment[] = [];
  for (const item of record.sessions.get(sessionId)?.log ?? []) {
    if ('own' in item) out.push({ sessionId, ops: item.own });
    else out.push(...withoutDropped(segmentsOf(record, item.child, seen), item.dropped));
  }
  return out;
}

/** Removes the ops a merge reported dropped (indices into the commit's flattened ops). */
export function withoutDropped(segments: readonly Segment[], dropped: readonly Conflict[]): Segment[] {
  if (dropped.length === 0) return [...segments];
  const drop = new Set(dropped.map((c) => c.opIndex));
  let index = 0;
  const out: Segment[] = [];
  for (const s of segments) {
    const ops = s.ops.filter(() => !drop.has(index++));
    if (ops.length > 0) out.push({ sessionId: s.sessionId, ops });
  }
  return out;
}

/**
 * Removes the REMOVEs that change nothing when the segments are replayed serially on `book`
 * (the skill is removed already, in the book or by an earlier op): a merge leaves them out,
 * so no audit holds them.
 */
export function withoutNoOps(book: Skillbook, segments: readonly Segment[]): Segment[] {
  const removed = new Set<string>();
  const out: Segment[] = [];
  for (const s of segments) {
    const ops = s.ops.filter((op) => {
      if (op.type !== 'REMOVE') return true;
      if (removed.has(op.skill_id) || book.get(op.skill_id)?.active === false) return false;
      removed.add(op.skill_id);
      return true;
    });
    if (ops.length > 0) out.push({ sessionId: s.sessionId, ops });
  }
  return out;
}

/**
 * Joins adjacent segments of the same session and drops empty ones: an audit may split one
 * session's writes where a child's empty commit merged in between, and that is no violation.
 */
export function coalesce(segments: readonly Segment[]): Segment[] {
  const out: { sessionId: string; ops: AppliedOp[] }[] = [];
  for (const s of segments) {
    if (s.ops.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.sessionId === s.sessionId) last.ops.push(...s.ops);
    else out.push({ sessionId: s.sessionId, ops: [...s.ops] });
  }
  return out;
}

/**
 * `expected` with its `next_id` raised to `actual`'s: a store keeps the book's `next_id` past
 * every id lease it granted, and a lease is no change of the book, so a replay equals the book
 * up to that counter (and never past it).
 */
export function upToLeases(expected: Skillbook, actual: Skillbook): Skillbook {
  return expected.reserveIds(actual.nextId);
}

/** Replays ops on a book, naming the first failure. */
export function replayAll(
  book: Skillbook,
  batches: readonly (readonly AppliedOp[])[],
): { ok: true; book: Skillbook } | { ok: false; message: string } {
  let current = book;
  for (const ops of batches) {
    if (ops.length === 0) continue;
    const r = current.replay(ops);
    if (!r.ok) return { ok: false, message: r.error.message };
    current = r.book;
  }
  return { ok: true, book: current };
}
