import type { Skillbook } from '@cohort/skillbook';
import type { StoreNotice } from '../StoreNotice.ts';
import { writeCheckpoint } from './checkpoint.ts';
import type { CheckpointResult } from './checkpoint.ts';
import { classifyExternal } from './classifyExternal.ts';
import type { Classification } from './classifyExternal.ts';
import { occurrenceId } from './digest.ts';
import type { DiskView } from './DiskView.ts';
import type { CopyWritten } from './RecoveryCopies.ts';
import type { StoreContext } from './StoreContext.ts';

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
    fromRevision: ctx.sequencer.book.revision, diskDigest: doc.digest, rebased: cls.rebased, idMap: { ...cls.idMap }, external: cls.external,
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
  const cls = classifyExternal(view.baseBook, ours, doc.book, view.since.map((s) => s.line));
  const reason = cls.kind === 'adopt' ? 'adopted' : cls.kind === 'rebase' ? 'rebased' : 'forked';
  const id = occurrenceId(reason, ctx.paths.document, doc.digest, view.chain);
  let copy: CopyWritten | null = null;
  let lineage = view.ledger.lineage;
  if (cls.kind === 'fork') {
    copy = await ctx.copies.keep({ ours, lineage, writerId: ctx.options.writerId, at: ctx.options.clock.now(), occurrence: id });
    lineage = copy.name;
  }
  const notice = buildNotice(ctx, cls, doc, id, copy);
  const markReason = notice.type === 'store.force_saved' ? 'force_saved' : reason;
  const result: CheckpointResult = await writeCheckpoint(ctx, view, {
    book: cls.main,
    ...(cls.kind === 'adopt' ? { text: doc.text } : {}),
    reason: 'reconciled',
    rewriteDocument: cls.kind !== 'adopt' || doc.late === true,
    expectFingerprint: doc.fingerprint,
    // what the document file holds when the store replaces it: for a late write, our own last checkpoint
    expectDigest: doc.late ? view.ledger.contentDigest : doc.digest,
    ...(doc.late ? { absorbsLate: doc.digest } : {}),
    lineage,
    mark: { v: 1, t: 'mark', writer: ctx.options.writerId, reason: markReason, notice: id, at: ctx.options.clock.now() },
  });
  if (!result.ok) return null;
  ctx.sequencer.absorb(cls.main);
  await ctx.notices.emit(notice);
  return result.view;
}
