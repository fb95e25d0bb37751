/**
 * `@cohort/store/mutants`: deliberately broken variants of the file store, so that a checker
 * (the simulation's invariants) can be shown to fail on a store that reconciles wrongly. Never use
 * them otherwise.
 *
 * - `stale-base`: reconciles every document another writer saves against the version the store
 *   last wrote, whatever the writer started from — what a naive store does, taking the
 *   writer's stale copies of Cohort's newer changes for the writer's own changes.
 */
import { FileStore } from '../FileStore.ts';
import type { FileStoreOptions } from '../FileStoreOptions.ts';
import type { OpenResult } from '../StoreOpenError.ts';
import { scoreBase } from '../internal/external/scoreBase.ts';
import { faithfulSeams } from '../internal/external/StoreSeams.ts';
import type { StoreSeams } from '../internal/external/StoreSeams.ts';

/** The broken variants, by name. */
export const STORE_MUTATIONS = ['stale-base'] as const;
/** A broken variant's name. */
export type StoreMutation = (typeof STORE_MUTATIONS)[number];

const staleBase: StoreSeams = {
  ...faithfulSeams,
  findBase: async (_ctx, view, doc) => ({
    version: { source: 'cohort', digest: view.ledger.contentDigest, book: view.baseBook, revision: view.ledger.revision, at: 0 },
    score: scoreBase(view.baseBook, doc.book),
  }),
};

/**
 * Opens a file store with `mutation` built in; otherwise as {@link FileStore.open}.
 *
 * @example
 * const opened = await openMutantFileStore('stale-base', '/db/skillbook.json', { fs: mount });
 */
export function openMutantFileStore(mutation: StoreMutation, path: string, options: FileStoreOptions = {}): Promise<OpenResult<FileStore>> {
  const seams: Record<StoreMutation, StoreSeams> = { 'stale-base': staleBase };
  return FileStore.openWith(path, options, seams[mutation]);
}
