import type { Skillbook } from '@cohort/skillbook';
import { replayHistory } from '@cohort/store';
import type { PersistedCommit, StoreNotice } from '@cohort/store';
import { expectedMerge, inBookIds, missesExpected, renumberingsUpTo } from '../external/expectedMerge.ts';
import type { ExternalSaveRecord } from '../external/SimAceWriter.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { verdict } from './verdict.ts';

/** The notices of a document another program saved, merged into the live book. */
export type MergeNotice = Extract<StoreNotice, { type: 'store.adopted' | 'store.rebased' | 'store.forked' | 'store.force_saved' }>;

/**
 * The version the program really started a save from, as the store could know it: the document
 * it loaded, or — when that was a save of its own the store never saw (overwritten before the
 * store looked) — what that save started from, and so on.
 */
function trueBase(
  save: ExternalSaveRecord,
  byDigest: ReadonlyMap<string, ExternalSaveRecord>,
  seen: ReadonlySet<string>,
  chain: Set<ExternalSaveRecord>,
): Skillbook {
  let s = save;
  chain.add(s);
  for (;;) {
    const before = byDigest.get(s.baseDigest);
    if (!before || seen.has(before.digest) || chain.has(before)) return s.base;
    chain.add(before);
    s = before;
  }
}

const isMerge = (n: StoreNotice): n is MergeNotice =>
  n.type === 'store.rebased' ||
  n.type === 'store.forked' ||
  n.type === 'store.force_saved' ||
  (n.type === 'store.adopted' && n.source === 'external');

/**
 * Invariant 8 — another program's saves are merged, not taken as removals: each time the store
 * took in a document the program saved (by its history: a crash may cost a notice, never a
 * durable merge), the live book after it is the live book before it ⊕
 * the program's changes since the version it really started from (the harness knows it; the
 * store has to find it) that do not conflict — new skills in, content changes of skills Cohort
 * did not change, removals of skills whose content Cohort did not change, every counter
 * increment once, nothing the program never saw touched. And every skill the program added is
 * in the final book exactly once.
 *
 * @example
 * checkExternalMerges({ observations, references, unhandled: [] }).ok;
 */
export function checkExternalMerges(input: CheckInput): InvariantResult {
  const external = input.observations.external;
  if (!external) return verdict(8, [], 'no other program saved the document');
  if (!external.history) {
    // the store never opened again (a fault at its creation ends the run): nothing was merged to check
    const none = external.merges.filter(isMerge).length === 0;
    return verdict(8, none ? [] : ['the final store history could not be read'], 'the store did not reopen: no merge to check');
  }
  const history = external.history;
  // the first save that wrote each content (a save that changed nothing writes its base's again)
  const byDigest = new Map<string, ExternalSaveRecord>();
  for (const s of external.saves) if (!byDigest.has(s.digest)) byDigest.set(s.digest, s);
  // what the store took in, by the history (a crash may cost a notice, never a durable merge)
  const seen = new Set(history.flatMap((c) => (c.external?.document ? [c.external.document] : [])));
  const violations: string[] = [];
  const covered = new Set<ExternalSaveRecord>();
  let checked = 0;
  let live: Skillbook | undefined;
  for (const c of history) {
    const replayed = replayHistory([c], live);
    if (!replayed.ok) return verdict(8, [`the history does not replay at revision ${c.revision}: ${replayed.message}`], '');
    const save = c.external?.document ? byDigest.get(c.external.document) : undefined;
    if (save && live) {
      checked += 1;
      violations.push(...checkMerge(save, live, replayed.book, history, c.revision, { byDigest, seen, covered }));
    }
    live = replayed.book;
  }
  violations.push(...checkAdds(covered, live));
  return verdict(
    8,
    violations,
    `${external.saves.length} saves of another program, ${checked} merges: each is the live book ⊕ its non-conflicting changes against the version it started from; its skills in the final book once each`,
  );
}

interface Walk {
  readonly byDigest: ReadonlyMap<string, ExternalSaveRecord>;
  readonly seen: ReadonlySet<string>;
  readonly covered: Set<ExternalSaveRecord>;
}

/** One merge: the book after it against the reference merge of the save into the book before it. */
function checkMerge(
  save: ExternalSaveRecord,
  live: Skillbook,
  after: Skillbook,
  history: readonly PersistedCommit[],
  revision: number,
  walk: Walk,
): string[] {
  const renumbered = renumberingsUpTo(history, revision);
  const base = inBookIds(trueBase(save, walk.byDigest, walk.seen, walk.covered), renumbered);
  const expected = expectedMerge(base, inBookIds(save.saved, renumbered), live);
  const out: string[] = [];
  for (const [id, e] of expected) {
    const miss = missesExpected(e, after.get(id));
    if (miss) out.push(`merging the save of epoch ${save.epoch} at revision ${revision}: ${id} ${miss}`);
  }
  for (const s of after.skills()) if (!expected.has(s.id)) out.push(`merging at revision ${revision}: ${s.id} appeared from nowhere`);
  return out;
}

/** Every skill the program added in a save the store took in (itself or through a later one) is in the final book once. */
function checkAdds(covered: ReadonlySet<ExternalSaveRecord>, final: Skillbook | undefined): string[] {
  const identities = new Map<string, number>();
  for (const s of final?.skills() ?? [])
    identities.set(`${s.created_at}\u0000${s.issue}`, (identities.get(`${s.created_at}\u0000${s.issue}`) ?? 0) + 1);
  const out: string[] = [];
  for (const save of covered) {
    for (const op of save.ops) {
      if (op.type !== 'ADD') continue;
      const n = identities.get(`${op.at}\u0000${op.issue ?? ''}`) ?? 0;
      if (n !== 1)
        out.push(
          `the program's skill "${op.issue}" (epoch ${save.epoch}) is ${n === 0 ? 'not in the final book' : `in the final book ${n} times`}`,
        );
    }
  }
  return out;
}
