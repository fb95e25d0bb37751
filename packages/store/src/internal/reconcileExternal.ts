import type { Skillbook } from '@cohort/skillbook';
import type { StoreNotice } from '../StoreNotice.ts';
import { writeCheckpoint } from './checkpoint.ts';
import type { CheckpointResult } from './checkpoint.ts';
import { classifyExternal } from './classifyExternal.ts';
import type { Classification } from './classifyExternal.ts';
import { occurrenceId } from './digest.ts';
import type { DiskView } from './DiskView.ts';
import type { CopyWritten } from './RecoveryCopies.ts';
import { noticeBase } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';
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

function buildNotice(ctx: StoreContext, cls: Classification, doc: ForeignDocument, id: string, copy: CopyWritten | null): ReconcileNotice {
  const common = {
    id, at: ctx.options.clock.now(), document: ctx.paths.document, revision: cls.main.revision,
    fromRevision: ctx.sequencer.book.revision, diskDigest: doc.digest, rebased: cls.rebased, idMap: Object.fromEntries(cls.idMap), external: cls.external,
  };
  if (cls.kind === 'adopt') return { type: 'store.adopted', ...common, source: 'external', writerId: null, commits: 0 };
  if (cls.kind === 'rebase' || !copy) return { type: 'store.rebased', ...common };
  const fork = { ...common, copy: copy.path, depth: copy.depth, parent: copy.parent, conflicts: [...cls.conflicts] };
  return copy.fixedPoint
    ? { type: 'store.force_saved', ...fork, replacedDigest: copy.replacedDigest, carried: copy.carried }
    : { type: 'store.forked', ...fork, deduped: copy.deduped };
}

/**
 * Another writer (ACE, an editor, a person) rewrote the document: classify our side against
 * it by content ({@link classifyExternal}) and act. Adopt: the document becomes the baseline
 * as it is. Rebase: our acknowledged commits since the baseline are re-applied on top of it
 * and the document rewritten. Fork: the same, keeping the commits that apply, and our whole
 * side goes to a recovery copy first (the fixed-point copy past the depth cap). Then one
 * notice and one conflict-log record. Returns the view after it, or `null` when the lock was
 * lost meanwhile (the next look starts over).
 */
export async function reconcileExternal(ctx: StoreContext, view: DiskView, doc: ForeignDocument): Promise<DiskView | null> {
  const ours = ctx.sequencer.book;
  const ids = { leased: (n: number) => ctx.sequencer.leased(n), leasedThrough: ctx.sequencer.leaseRecord.through, remembered: view.ledger.renumbered };
  const cls = classifyExternal(view.baseBook, ours, doc.book, view.since.map((s) => s.line), ids);
  const reason = cls.kind === 'adopt' ? 'adopted' : cls.kind === 'rebase' ? 'rebased' : 'forked';
  const id = occurrenceId(reason, ctx.paths.document, doc.digest, view.chain);
  let copy: CopyWritten | null = null;
  let lineage = view.ledger.lineage;
  if (cls.kind === 'fork') {
    copy = await ctx.copies.keep({ ours, lineage, writerId: ctx.options.writerId, at: ctx.options.clock.now(), occurrence: id });
    lineage = copy.name;
  }
  const notice = buildNotice(ctx, cls, doc, id, copy);
  // the document's next_id stays past every lease, so the other writer allocates beyond them
  const main = cls.main.reserveIds(ids.leasedThrough);
  // the other writer's document is kept byte for byte only when it is the new book exactly
  const asIs = cls.kind === 'adopt' && main === doc.book;
  const change = bookChange(ours, main);
  const result: CheckpointResult = await writeCheckpoint(ctx, view, {
    book: main,
    ...(asIs ? { text: doc.text } : {}),
    reason: 'reconciled',
    rewriteDocument: !asIs || doc.late === true,
    expectFingerprint: doc.fingerprint,
    // what the document file holds when the store replaces it: for a late write, our own last checkpoint
    expectDigest: doc.late ? view.ledger.contentDigest : doc.digest,
    ...(doc.late ? { absorbsLate: doc.digest } : {}),
    lineage,
    external: {
      reason: notice.type === 'store.force_saved' ? 'force_saved' : reason, notice: id,
      skills: change.skills, purged: change.purged, next: change.next, renumbered: [...cls.idMap],
    },
    renumbered: cls.renumbered,
  });
  if (!result.ok) return null;
  ctx.sequencer.absorb(main);
  await ctx.notices.emit(notice);
  if (cls.renumbered.length > 0) {
    await ctx.notices.emit({
      type: 'store.ids_remapped', ...noticeBase(ctx, 'ids_remapped', 'external', doc.digest, view.chain),
      sessionId: 'external', path: ['external'], revision: main.revision, idMap: Object.fromEntries(cls.renumbered.map((r) => [r.from, r.to])),
    });
  }
  return result.view;
}
