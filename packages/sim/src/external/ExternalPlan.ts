/**
 * Another program writing the store's document during a run: an ACE learning loop that loads
 * the document, changes it and saves the whole of it in place, at scripted moments. Plain
 * data, generated from the seed with the rest of the scenario.
 */

/** How the other program loads: before each save (`reload`), or once, then saving from memory (`long-running`). */
export type ExternalMode = 'reload' | 'long-running';

/** One op of a save: an ADD of its own, or a change of a skill it knows (`pick`: where in its list of active skills, 0 ≤ pick < 1). */
export type ExternalOpPlan =
  | { readonly type: 'ADD'; readonly section: 'context' | 'harness' }
  | { readonly type: 'UPDATE' | 'TAG' | 'REMOVE'; readonly pick: number };

/** One save: when (`at` ms of virtual time into its epoch, or `before-open`: while no Cohort process runs) and what it changes. */
export interface ExternalSavePlan {
  readonly at: number | 'before-open';
  readonly ops: readonly ExternalOpPlan[];
}

/** The other program's whole plan: its mode, and per epoch its saves (one more entry: after the last epoch, before the final reopen). */
export interface ExternalPlan {
  readonly mode: ExternalMode;
  readonly saves: readonly (readonly ExternalSavePlan[])[];
}
