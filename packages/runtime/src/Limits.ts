import { z } from 'zod';
import type { OperationLimits } from '@cohort/skillbook';

/**
 * Structural limits of a runtime, and bounds on what untrusted input (a model's tool calls, a
 * session's `applyBatch`, a commit) may carry. Breaking one is a structured refusal, never a
 * hang: a spawn or commit fails with `limit_exceeded`, a tool call or batch is refused with an
 * error naming the field and the limit. The input bounds are generous for real skills; they
 * stop a runaway model from making a 100 MB document.
 */
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
  /** Characters of `issue`, `insight`, `reason`, a `recurse` task, and every text field of an insight source. */
  maxTextLength: z.number().int().positive(),
  /** Keywords of one skill operation. */
  maxKeywords: z.number().int().nonnegative(),
  /** Characters of one keyword. */
  maxKeywordLength: z.number().int().positive(),
  /** Insight sources of one skill operation. */
  maxSources: z.number().int().nonnegative(),
  /** Characters of a `skill_id`, a section name and a session name. */
  maxIdLength: z.number().int().positive(),
  /** Bytes (UTF-8) of the text of one commit's ops, its merged children's included. */
  maxCommitBytes: z.number().int().positive(),
});
/** See {@link LimitsSchema}. */
export type Limits = z.infer<typeof LimitsSchema>;

/** The documented defaults. */
export const defaultLimits: Limits = Object.freeze({
  maxDepth: 2,
  maxChildren: 10_000,
  maxSessions: 20_000,
  maxOpsPerCommit: 100_000,
  maxMergeQueue: 256,
  maxTextLength: 20_000,
  maxKeywords: 64,
  maxKeywordLength: 200,
  maxSources: 64,
  maxIdLength: 256,
  maxCommitBytes: 64 * 1024 * 1024,
});

/** The part of `limits` a Skillbook batch is checked against (see `ApplyOptions.limits`). */
export function operationLimits(limits: Limits): OperationLimits {
  const { maxTextLength, maxKeywords, maxKeywordLength, maxSources, maxIdLength } = limits;
  return { maxTextLength, maxKeywords, maxKeywordLength, maxSources, maxIdLength };
}
