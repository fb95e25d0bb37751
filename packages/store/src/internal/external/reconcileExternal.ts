import { Skillbook, formatAceTimestamp } from '@cohort/skillbook';
import type { ForkConflict, ReconcileBase, StoreNotice } from '../../StoreNotice.ts';
import { skillSide } from '../sequencing/contentConflicts.ts';
import { writeCheckpoint } from '../checkpoint/checkpoint.ts';
import type { CheckpointResult } from '../checkpoint/checkpoint.ts';
import { occurrenceId } from '../disk/digest.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { opsOfLine } from '../journal/JournalLine.ts';
import type { Theirs } from '../journal/JournalLine.ts';
import { applyTheirs } from './rebuildVersions.ts';
import type { BaseMatch } from './BaseVersions.ts';
import { reconcileBook } from './reconcileBook.ts';
import type { BookReconciliation, ReconcileConflict } from './reconcileBook.ts';
import type { CopyWritten } from '../disk/RecoveryCopies.ts';
import { noticeBase } from '../worker/StoreContext.ts';
import type { StoreContext } from '../worker/StoreContext.ts';
import { bookChange } from './bookChange.ts';

/**
 * A document another writer left: its exact text, digest and book (parsed at the next
 * revision), and the fingerprint the document file must still have for the store to replace
 * it (the foreign file's own, or, for a write that landed in `.replaced`, the document's).
 */
export interface ForeignDocument {
  readonly text: string;
  readonly digest: string;
  readonly fingerprint: string | null;
  readonly book: Skillbook;
  /** For a late write into `.replaced`: the document file holds our content, which the adopted text must replace. */
  readonly late?: boolean;
}

type ReconcileNotice = Extract<StoreNotice, { type: 'store.adopted' | 'store.rebased' | 'store.forked' | 'store.force_saved' }>;

/** How the store took a document in: as it is, reconciled, or reconciled with real conflicts whose losing side went to a copy. */
type Outcome = 'adopt' | 'rebase' | 'fork';

/** The Cohort session whose commit past the document last touched `skillId`, if one did. */
function lastSession(view: DiskView, skillId: string): string | null {
  for (let i = view.since.length - 1; i >= 0; i -= 1) {
    const line = view.since[i]?.line;
    if (line && opsOfLine(line).some((op) => op.skill_id === skillId)) return line.session;
  }
  return null;
}

function forkConflicts(view: DiskView, conflicts: readonly ReconcileConflict[]): ForkConflict[] {
  return conflicts.map((c) => ({
    skillId: c.skillId,
    type: c.type,
    reason: c.reason,
    theirs: c.theirs && skillSide(c.theirs),
    ours: c.ours && skillSide(c.ours),
    sessionId: lastSession(view, c.skillId),
  }));
}

function reconcileBase(found: BaseMatch | null): ReconcileBase {
  return found
    ? { source: found.version.source, revision: found.version.revision, digest: found.version.digest }
    : { source: 'none', revision: null, digest: null };
}

interface NoticeInput {
  readonly outcome: Outcome;
  readonly reconciled: BookReconciliation;
  readonly found: BaseMatch | null;
  readonly main: Skillbook;
  readonly copy: CopyWritten | null;
  readonly id: string;
}

function buildNotice(ctx: StoreContext, view: DiskView, doc: ForeignDocument, n: NoticeInput): ReconcileNotice {
  const common = {
    id: n.id,
    at: ctx.options.clock.now(),
    document: ctx.paths.document,
    revision: n.main.revision,
    fromRevision: ctx.sequencer.book.revision,
    diskDigest: doc.digest,
    rebased: view.since.length,
    idMap: Object.fromEntries(n.reconciled.idMap),
    external: n.reconciled.changes,
    base: reconcileBase(n.found),
    conflicts: forkConflicts(view, n.reconciled.conflicts),
  };
  if (n.outcome === 'adopt') return { type: 'store.adopted', ...common, source: 'external', writerId: null, commits: 0 };
  if (n.outcome === 'rebase' || !n.copy) return { type: 'store.rebased', ...common };
  const fork = { ...common, copy: n.copy.path, depth: n.copy.depth, parent: n.copy.parent };
  return n.copy.fixedPoint
    ? { type: 'store.force_saved', ...fork, replacedDigest: n.copy.replacedDigest, carried: n.copy.carried }
    : { type: 'store.forked', ...fork, deduped: n.copy.deduped };
}

/** The other writer's versions that lost real conflicts, as an ACE document (under the live book's ids). */
function losingSide(conflicts: readonly ReconcileConflict[]): Skillbook | null {
  const skills = conflicts.flatMap((c) => (c.theirs ? [{ ...c.theirs, id: c.skillId }] : []));
  return skills.length === 0 ? null : Skillbook.empty().adopt({ skills, purged: [], nextId: 0 }, { revision: 0 });
}

/** Whether `reconciled` is the document exactly (nothing of Cohort's it lacks, nothing renumbered): then it is kept byte for byte. */
function documentHoldsAll(reconciled: BookReconciliation, doc: ForeignDocument): boolean {
  if (reconciled.idMap.size > 0 || reconciled.conflicts.length > 0) return false;
  const change = bookChange(doc.book, reconciled.book);
  return change.skills.length === 0 && change.purged.length === 0;
}

/**
 * Another writer (ACE, an editor, a person) rewrote the document: reconcile it with the live
 * book three ways, against the version it started from — found among the versions this store
 * wrote and the ones other writers saved ({@link BaseVersions}); none found: conservatively —
 * and write the result as the document. What the writer changed is rebased onto the live book
 * with the conflict table ({@link reconcileBook}): Cohort's work it never saw stays, its own
 * additions, changes and counter increments come in, and only real conflicts (the same skill
 * changed on both sides) leave the live book's side in place and put the writer's in a
 * recovery copy (the fixed-point copy past the depth cap). A document that already holds
 * everything is adopted as it is. Then one notice and one conflict-log record. Returns the
 * view after it, or `null` when the lock was lost meanwhile (the next look starts over).
 */
export async function reconcileExternal(ctx: StoreContext, view: DiskView, doc: ForeignDocument): Promise<DiskView | null> {
  const ours = ctx.sequencer.book;
  const leasedThrough = ctx.sequencer.leaseRecord.through;
  const ids = {
    leased: (n: number) => ctx.sequencer.leased(n),
    leasedThrough,
    remembered: (id: string, at: string) => ctx.renumbered.lookup(id, at),
  };
  const found = await ctx.seams.findBase(ctx, view, doc, ids);
  const reconciled = reconcileBook(
    found?.version.book ?? null,
    doc.book,
    ours,
    ids,
    formatAceTimestamp(ctx.options.clock.now()),
    found?.tied?.book ?? null,
  );
  const losing = losingSide(reconciled.conflicts);
  const outcome: Outcome = documentHoldsAll(reconciled, doc) ? 'adopt' : losing ? 'fork' : 'rebase';
  const reason = outcome === 'adopt' ? 'adopted' : outcome === 'rebase' ? 'rebased' : 'forked';
  const id = occurrenceId(reason, ctx.paths.document, doc.digest, view.chain);
  let copy: CopyWritten | null = null;
  let lineage = view.ledger.lineage;
  if (losing) {
    copy = await ctx.copies.keep({ book: losing, lineage, writerId: ctx.options.writerId, at: ctx.options.clock.now(), occurrence: id });
    lineage = copy.name;
  }
  // the document's next_id stays past every lease, so the other writer allocates beyond them
  const main = (outcome === 'adopt' ? doc.book : reconciled.book).reserveIds(leasedThrough);
  const notice = buildNotice(ctx, view, doc, { outcome, reconciled, found, main, copy, id });
  // the other writer's document is kept byte for byte only when it is the new book exactly
  const asIs = outcome === 'adopt' && main === doc.book;
  const change = bookChange(ours, main);
  ctx.renumbered.add(reconciled.fresh);
  const theirs = theirsOf(found, doc.digest, reconciled.disk, ours);
  const result: CheckpointResult = await writeCheckpoint(ctx, view, {
    book: main,
    ...(asIs ? { text: doc.text } : {}),
    reason: 'reconciled',
    rewriteDocument: !asIs || doc.late === true,
    expectFingerprint: doc.fingerprint,
    // what the document file holds when the store replaces it: for a late write, our own last checkpoint
    expectDigest: doc.late ? (view.docDigest ?? view.ledger.contentDigest) : doc.digest,
    ...(doc.late ? { absorbsLate: doc.digest } : {}),
    lineage,
    external: {
      reason: notice.type === 'store.force_saved' ? 'force_saved' : reason,
      notice: id,
      skills: change.skills,
      purged: change.purged,
      next: change.next,
      renumbered: [...reconciled.idMap],
      theirs: theirs.record,
    },
    renumbered: reconciled.fresh,
  });
  if (!result.ok) return null;
  ctx.versions.keep({ source: 'external', digest: doc.digest, book: theirs.version, revision: main.revision, at: ctx.options.clock.now() });
  ctx.sequencer.absorb(main);
  await ctx.notices.emit(notice);
  if (reconciled.fresh.length > 0) {
    await ctx.notices.emit({
      type: 'store.ids_remapped',
      ...noticeBase(ctx, 'ids_remapped', 'external', doc.digest, view.chain),
      sessionId: 'external',
      path: ['external'],
      revision: main.revision,
      idMap: Object.fromEntries(reconciled.fresh.map((r) => [r.from, r.to])),
    });
  }
  return result.view;
}

/**
 * The other writer's document (in Cohort's ids) as its journal record keeps it — a change
 * against the version it was reconciled against (or, without one, against the live book) — and as
 * a version to keep: that book plus the change, sharing the base's structure.
 */
function theirsOf(found: BaseMatch | null, digest: string, disk: Skillbook, live: Skillbook): { record: Theirs; version: Skillbook } {
  const from = found?.version.book ?? live;
  const change = bookChange(from, disk);
  const base = found ? { source: found.version.source, rev: found.version.revision, digest: found.version.digest } : null;
  const record: Theirs = { digest, base, skills: change.skills, purged: change.purged, next: disk.nextId };
  const same = change.skills.length === 0 && change.purged.length === 0;
  return { record, version: same ? from : applyTheirs(from, record) };
}
