/**
 * The previous document file a checkpoint keeps under a second name (`.replaced`): a writer
 * that opened the document before the checkpoint renamed a new one over it (ACE writes in
 * place) and writes after the rename lands there, not nowhere. One look at that file serves
 * every caller: a sync reconciles a late write, a checkpoint keeps the file for that, closing
 * removes it when nothing landed in it.
 */
import { fsErrorCode } from '../../StoreFs.ts';
import { sha256Hex } from '../disk/digest.ts';
import type { DiskView } from '../disk/DiskView.ts';
import type { StoreContext } from '../worker/StoreContext.ts';
import { tempPath } from '../disk/StorePaths.ts';

/** What the watched `.replaced` file holds now (see {@link lookAtReplaced}). */
export type ReplacedFile =
  /** Nothing is watched, or the file is gone or is another file now: the watch is over. */
  | { readonly kind: 'gone' }
  /** Still what the store replaced (`fingerprint`: the file's, as it was just found). */
  | { readonly kind: 'unchanged'; readonly fingerprint: string }
  /** Something landed in it late: another writer's document. */
  | { readonly kind: 'written'; readonly bytes: Uint8Array; readonly digest: string };

/** Looks at the `.replaced` file `view` watches, reading it only when its fingerprint moved since it was last found unchanged. */
export async function lookAtReplaced(ctx: StoreContext, view: DiskView): Promise<ReplacedFile> {
  const watched = view.replaced;
  if (!watched) return { kind: 'gone' };
  const stat = await ctx.fs.stat(ctx.paths.replaced);
  if (!stat || stat.identity !== watched.identity) return { kind: 'gone' };
  if (stat.fingerprint === watched.seen) return { kind: 'unchanged', fingerprint: stat.fingerprint };
  const bytes = await ctx.fs.readFile(ctx.paths.replaced);
  if (!bytes) return { kind: 'gone' };
  const digest = sha256Hex(bytes);
  return digest === watched.digest ? { kind: 'unchanged', fingerprint: stat.fingerprint } : { kind: 'written', bytes, digest };
}

/** Whether `.replaced` holds a write no look has reconciled yet (other than `absorbsLate`, the one a checkpoint takes in). */
async function lateWriteInReplaced(ctx: StoreContext, view: DiskView, absorbsLate: string | undefined): Promise<boolean> {
  const file = await lookAtReplaced(ctx, view);
  return file.kind === 'written' && file.digest !== absorbsLate;
}

/** How {@link replaceDocument} left the document: replaced (the old file's identity), created, kept as another writer changed it, or kept for a late write. */
export type Replacement = { readonly identity: string } | 'created' | 'kept' | 'late';

/**
 * Renames the checkpoint's new document into place, unless another writer changed it since
 * the store looked (`expectFingerprint`). The old file keeps a second name (`.replaced`).
 */
export async function replaceDocument(
  ctx: StoreContext,
  view: DiskView,
  expectFingerprint: string | null,
  absorbsLate: string | undefined,
): Promise<Replacement> {
  const { fs, paths } = ctx;
  const newFile = tempPath(paths.document);
  // a write that landed in the previous replaced file since the last look is another writer's
  // document: keep that file (and the current document) for the next look to reconcile
  if (await lateWriteInReplaced(ctx, view, absorbsLate)) {
    await fs.unlink(newFile).catch(() => undefined);
    return 'late';
  }
  await fs.unlink(paths.replaced).catch(() => undefined);
  const current = await fs.stat(paths.document);
  if ((current?.fingerprint ?? null) !== expectFingerprint) {
    await fs.unlink(newFile).catch(() => undefined);
    return 'kept';
  }
  // a write between the look and the rename lands in the old file, which keeps this name
  let linked = false;
  if (current) {
    linked = await fs.link(paths.document, paths.replaced).then(
      () => true,
      (error: unknown) => {
        if (fsErrorCode(error) !== 'ENOENT') throw error;
        return false;
      },
    );
  }
  await fs.rename(newFile, paths.document);
  return current && linked ? { identity: current.identity } : 'created';
}

/** The watch after a checkpoint that left the document as `replacement` (`expectDigest`: what the replaced file held). */
export function watchAfter(view: DiskView, replacement: Replacement | null, expectDigest: string | null): DiskView['replaced'] {
  if (typeof replacement === 'object' && replacement !== null)
    return expectDigest === null ? null : { identity: replacement.identity, digest: expectDigest };
  return replacement === null || replacement === 'late' ? view.replaced : null;
}

/**
 * Removes the `.replaced` file when nothing landed in it late (closing: no later look would
 * catch such a write); a file that changed is left for the next open. The watch ends either way.
 */
export async function retireReplaced(ctx: StoreContext, view: DiskView): Promise<DiskView> {
  if ((await lookAtReplaced(ctx, view)).kind === 'unchanged') await ctx.fs.unlink(ctx.paths.replaced).catch(() => undefined);
  return { ...view, replaced: null };
}
