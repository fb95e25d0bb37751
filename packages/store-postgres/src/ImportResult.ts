import type { StoreError } from '@cohort/store';

/** The result of `PostgresStore.importDocument`: the revision and skills imported, or why nothing was. */
export type ImportResult =
  | { readonly ok: true; readonly revision: number; readonly skills: number }
  | { readonly ok: false; readonly error: StoreError };
