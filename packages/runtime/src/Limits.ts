import { z } from 'zod';

/** Structural limits of a runtime. Breaking one is a structured refusal, never a hang. */
export const LimitsSchema = z.object({
  /** Deepest session depth (root sessions are depth 0). 2, as ACE: the root and depth-1 sessions may spawn. */
  maxDepth: z.number().int().nonnegative(),
  /** Live children per session. */
  maxChildren: z.number().int().positive(),
  /** Live sessions in the whole runtime. */
  maxSessions: z.number().int().positive(),
  /** Ops in one commit (own writes plus merged children's). */
  maxOpsPerCommit: z.number().int().positive(),
  /** Commits waiting for durability at the root; a commit that finds it full waits for room. */
  maxMergeQueue: z.number().int().positive(),
});
/** See {@link LimitsSchema}. */
export type Limits = z.infer<typeof LimitsSchema>;

/** The documented defaults. */
export const defaultLimits: Limits = Object.freeze({
  maxDepth: 2,
  maxChildren: 10_000,
  maxSessions: 100_000,
  maxOpsPerCommit: 100_000,
  maxMergeQueue: 256,
});
