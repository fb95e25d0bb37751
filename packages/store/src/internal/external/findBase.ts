import type { BaseMatch } from './BaseVersions.ts';
import { BaseVersions } from './BaseVersions.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { inCohortIds } from './mapExternalIds.ts';
import type { IdKnowledge } from './mapExternalIds.ts';
import { rebuildVersions } from './rebuildVersions.ts';
import type { ForeignDocument } from './reconcileExternal.ts';
import type { StoreContext } from '../worker/StoreContext.ts';

/**
 * The version `disk` started from: among the versions kept — and, on the first look at another
 * writer's document after the store opened, among those the journal rebuilds as well (the
 * revisions before the document and the other writers' saves it recorded): after a restart the
 * store keeps only the document it last wrote, while a long-running ACE's next save starts from
 * its own last one. A document that is a version kept (the same bytes) needs no search.
 */
export async function findBase(ctx: StoreContext, view: DiskView, doc: ForeignDocument, ids: IdKnowledge): Promise<BaseMatch | null> {
  const disk = inCohortIds(doc.book, ids);
  if (ctx.versions.rebuilt || ctx.versions.knows(doc.digest)) return ctx.versions.find(disk.book, doc.digest, disk.stillOld);
  const rebuilt = await rebuildVersions(ctx, view);
  ctx.versions.markRebuilt();
  if (!rebuilt) return ctx.versions.find(disk.book, doc.digest, disk.stillOld);
  // the journal may remember renumberings the ledger did not keep
  ctx.renumbered.addOlder(rebuilt.renumbered);
  ctx.versions.keepOlder(rebuilt.externals);
  const found = BaseVersions.best([...rebuilt.candidates, ...ctx.versions.all], disk.book, disk.stillOld);
  if (found) ctx.versions.keep(found.version);
  return found;
}
