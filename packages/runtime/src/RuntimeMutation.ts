/**
 * Deliberately broken variants of the runtime, for proving that the simulation's invariant
 * checker can fail (mutation testing). Never use one outside a test.
 *
 * - `shared-draft`: a child writes straight into its parent's draft (ACE's shallow copy).
 * - `interleaved-merge`: a supervisor applies half of a commit, lets other work in, then the rest.
 * - `keep-failed-writes`: a failed session's own writes are merged into its parent anyway.
 */
export type RuntimeMutation = 'shared-draft' | 'interleaved-merge' | 'keep-failed-writes';
