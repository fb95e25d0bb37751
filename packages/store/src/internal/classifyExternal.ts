import type { AppliedOp, Conflict, Skill, Skillbook } from '@cohort/skillbook';
import type { ExternalChanges, ForkConflict } from '../StoreNotice.ts';
import { opsOfLine } from './JournalLine.ts';
import type { CommitLine, CommitLineV1 } from './JournalLine.ts';
import { contentConflicts, sameContent, sameSkill } from './contentConflicts.ts';
import type { Renumbered } from './Ledger.ts';
import { renumberExternal } from './renumberExternal.ts';
import type { IdKnowledge } from './renumberExternal.ts';

/** A commit past the document, as the journal holds it. */
type OurCommit = CommitLine | CommitLineV1;

/** How our side relates to a document another writer left: see {@link classifyExternal}. */
export interface Classification {
  /** `adopt`: the document has all of ours; `rebase`: ours applies cleanly on top; `fork`: diverged. */
  readonly kind: 'adopt' | 'rebase' | 'fork';
  readonly external: ExternalChanges;
  /** The new main book: the document, plus our commits that apply cleanly on top of it. */
  readonly main: Skillbook;
  readonly rebased: number;
  /** The other writer's skills renumbered (their id was Cohort's), remembered ones included. */
  readonly idMap: ReadonlyMap<string, string>;
  /** The renumberings made now (to remember). */
  readonly renumbered: readonly Renumbered[];
  /** Ops of our commits that could not be re-applied (they stay in the recovery copy). */
  readonly conflicts: readonly ForkConflict[];
}

const SAMPLE = 50;

/** What another writer changed, from `base` (the document we last wrote) to `disk`. */
export function externalChanges(base: Skillbook, disk: Skillbook): ExternalChanges {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const dropped: string[] = [];
  for (const before of base.skills()) {
    const after = disk.get(before.id);
    // a different skill under the same id: ours was displaced (dropped), theirs is new
    if (!after || !sameSkill(before, after)) dropped.push(before.id);
    else if (!sameContent(before, after)) changed.push(before.id);
    else if (before.active && !after.active) removed.push(before.id);
  }
  for (const skill of disk.skills()) {
    const before = base.get(skill.id);
    if (!before || !sameSkill(before, skill)) added.push(skill.id);
  }
  return {
    added: added.slice(0, SAMPLE), changed: changed.slice(0, SAMPLE), removed: removed.slice(0, SAMPLE), dropped: dropped.slice(0, SAMPLE),
    counts: { added: added.length, changed: changed.length, removed: removed.length, dropped: dropped.length },
  };
}

/** Whether `d` has everything `o` has: same content and flag, counters and occurrences at least as far. */
function holds(d: Skill, o: Skill): boolean {
  return sameSkill(o, d) && sameContent(o, d) && o.active === d.active && d.used_count >= o.used_count && d.helpful_count >= o.helpful_count
    && d.harmful_count >= o.harmful_count && d.neutral_count >= o.neutral_count && d.occurrences.length >= o.occurrences.length;
}

function opsOf(commit: OurCommit): readonly AppliedOp[] {
  return opsOfLine(commit);
}

function covers(disk: Skillbook, ours: Skillbook, commits: readonly OurCommit[]): boolean {
  for (const commit of commits) {
    for (const op of opsOf(commit)) {
      const o = ours.get(op.skill_id);
      if (!o) continue;
      const d = disk.get(op.skill_id);
      if (!d || !holds(d, o)) return false;
    }
  }
  return true;
}

function forkConflicts(commit: OurCommit, conflicts: readonly Conflict[]): ForkConflict[] {
  return conflicts.map((c) => ({
    revision: commit.rev, sessionId: commit.session, path: [...commit.path], opIndex: c.opIndex, type: c.type, skillId: c.skillId, reason: c.reason,
  }));
}

/**
 * Classifies, by content, our side against a document another writer left. `base` is the
 * document as we last wrote it, `ours` is base plus our acknowledged commits since (`commits`),
 * `disk` is the other writer's document (parsed at a revision past ours). Nothing changed is
 * not a case here (the digests were equal). The other writer's newcomers whose id is Cohort's
 * are renumbered first ({@link renumberExternal}): Cohort's ids are final. Then: the document
 * has all of ours → `adopt`. Else our commits are re-applied on top of it, one by one (by
 * content): all apply and the document lost none of base's skills → `rebase`; otherwise →
 * `fork` (ours must be kept whole in a recovery copy).
 */
export function classifyExternal(base: Skillbook, ours: Skillbook, disk: Skillbook, commits: readonly OurCommit[], ids: IdKnowledge): Classification {
  const prepared = renumberExternal(base, ours, disk, ids);
  const theirs = prepared.disk;
  const renumbering = { idMap: prepared.idMap, renumbered: prepared.fresh };
  const external = externalChanges(base, theirs);
  const dropped = external.counts.dropped > 0;
  if (!dropped && covers(theirs, ours, commits)) {
    return { kind: 'adopt', external, main: theirs, rebased: 0, ...renumbering, conflicts: [] };
  }
  let book = theirs;
  const conflicts: ForkConflict[] = [];
  let rebased = 0;
  for (const commit of commits) {
    const ops = opsOf(commit);
    const found = contentConflicts(base, theirs, ops, theirs.revision);
    if (found.length > 0) {
      conflicts.push(...forkConflicts(commit, found));
      continue;
    }
    const replayed = book.replay(ops);
    if (!replayed.ok || replayed.skipped.some((k) => k.code === 'no_skill')) {
      const missing: Conflict[] = replayed.ok
        ? replayed.skipped.filter((k) => k.code === 'no_skill').map((k) => ({ opIndex: k.opIndex, type: k.type, skillId: k.skillId ?? '', reason: 'removed', revision: theirs.revision }))
        : [{ opIndex: replayed.error.opIndex ?? 0, type: ops[0]?.type ?? 'ADD', skillId: ops[0]?.skill_id ?? '', reason: replayed.error.code === 'duplicate_skill_id' ? 'id_exists' : 'removed', revision: theirs.revision }];
      conflicts.push(...forkConflicts(commit, missing));
      continue;
    }
    book = replayed.book;
    rebased += 1;
  }
  const kind = !dropped && conflicts.length === 0 ? 'rebase' : 'fork';
  return { kind, external, main: book, rebased, ...renumbering, conflicts };
}
