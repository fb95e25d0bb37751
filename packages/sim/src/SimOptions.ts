import { z } from 'zod';

/**
 * The deliberately broken variants the simulation can run against, to prove its checker can
 * fail: the runtime's five (from `@cohort/runtime/testing`), `ack-before-sync`, a store
 * that acknowledges a merge before it is durable, and `stale-base`, a file store that merges
 * another program's document against the version it last wrote (`@cohort/store/mutants`); and
 * two of a durable tree's resume: one that runs recorded children again, one that forgets the
 * recorded order of their merges.
 */
export const SimMutationSchema = z.enum([
  'shared-draft',
  'interleaved-merge',
  'keep-failed-writes',
  'unleased-ids',
  'flat-audit',
  'ack-before-sync',
  'stale-base',
  'durable-rerun-recorded',
  'durable-forget-merge-order',
]);
/** See {@link SimMutationSchema}. */
export type SimMutation = z.infer<typeof SimMutationSchema>;

/**
 * Options of {@link simulate}, parsed at the boundary. Only `seed` is required; the same seed
 * and options give the same scenario and, with the same code, a byte-identical report.
 */
export const SimOptionsSchema = z.strictObject({
  /** Names the run: every choice of the scenario derives from it. */
  seed: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 32 - 1),
  /** Where the root book lives: a memory store, a file store on a simulated disk, or either (chosen by the seed). */
  store: z.enum(['auto', 'memory', 'file']).default('auto'),
  /** Inject faults (crashes, aborts, timeouts, store faults, process crashes); off gives clean runs. */
  faults: z.boolean().default(true),
  /** At most this many root sessions per epoch (1–6). */
  maxRoots: z.number().int().min(1).max(6).default(3),
  /** Run against a deliberately broken variant (tests of the checker only). */
  mutation: SimMutationSchema.optional(),
});
/** What {@link simulate} takes; see {@link SimOptionsSchema}. */
export type SimOptions = z.input<typeof SimOptionsSchema>;
/** {@link SimOptions} with every default filled in. */
export type ResolvedSimOptions = z.output<typeof SimOptionsSchema>;

/**
 * Parses simulation options, throwing a readable error on bad input (a programmer error at
 * the boundary, code `SIM_BAD_OPTIONS`).
 *
 * @example
 * resolveSimOptions({ seed: 7 }).store; // 'auto'
 */
export function resolveSimOptions(options: SimOptions): ResolvedSimOptions {
  const parsed = SimOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw Object.assign(new Error(`invalid simulation options: ${z.prettifyError(parsed.error)}`), { code: 'SIM_BAD_OPTIONS' });
  }
  return parsed.data;
}
