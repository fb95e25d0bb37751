import type { BaseMatch } from './BaseVersions.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { findBase } from './findBase.ts';
import type { IdKnowledge } from './mapExternalIds.ts';
import type { ForeignDocument } from './reconcileExternal.ts';
import type { StoreContext } from '../worker/StoreContext.ts';

/**
 * The parts of the file store a deliberately broken variant replaces (`@cohort/store/mutants`),
 * so that the simulation can show its checker fails on a store that reconciles wrongly.
 */
export interface StoreSeams {
  /** The version another writer's document started from (see `findBase.ts`). */
  readonly findBase: (ctx: StoreContext, view: DiskView, doc: ForeignDocument, ids: IdKnowledge) => Promise<BaseMatch | null>;
}

/** The real store. */
export const faithfulSeams: StoreSeams = { findBase };
