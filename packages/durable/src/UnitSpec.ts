import { z } from 'zod';
import { AppliedOpSchema } from '@cohort/skillbook';
import type { AppliedOp } from '@cohort/skillbook';
import { BudgetSpecSchema, SessionFailureSchema } from '@cohort/runtime';
import type { AuditEntry, RefusedCalls, SessionFailure } from '@cohort/runtime';

/**
 * What a durable unit runs (a root session, or a registered body spawned in a durable
 * session): the workflow's input, recorded by DBOS. `view` is what its draft needs — the
 * store's revision its tree started from and the ops on top of it that its parent's draft
 * held at the spawn — so it sees the same book on any worker.
 */
export const UnitSpecSchema = z.object({
  /** The unit's workflow id: the run id, or its parent unit's id and the spawning session's key. */
  unitId: z.string().min(1),
  /** The registered body's name. */
  body: z.string().min(1),
  input: z.unknown(),
  name: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** Which run of its spawn the unit is (`retry`): what its root session's `s.attempt` says. */
  attempt: z.number().int().positive().optional(),
  /**
   * What the unit may spend: the tokens and requests its spawning session had left at the
   * spawn (its own budget's, or its parent's it spends from), and its wall-clock budget.
   */
  budget: BudgetSpecSchema.optional(),
  /** The session in the parent's tree the unit's root session is (absent for the run's root). */
  home: z.object({ sessionId: z.string().min(1), path: z.array(z.string().min(1)).min(2) }).optional(),
  view: z.object({ baseRevision: z.number().int().nonnegative(), ops: z.array(AppliedOpSchema) }),
  /** The spawning session's trace context (W3C `traceparent`, `tracestate`): the unit's spans join its trace on any worker. */
  trace: z.record(z.string(), z.string()).optional(),
});

/** See {@link UnitSpecSchema}. */
export type UnitSpec = Omit<z.infer<typeof UnitSpecSchema>, 'view'> & {
  readonly view: { readonly baseRevision: number; readonly ops: readonly AppliedOp[] };
};

/** What a unit's sessions charged (`s.charge`), recorded with its outcome: its parent charges it once. */
const UsageSchema = z.object({ tokens: z.number().nonnegative(), requests: z.number().nonnegative() });

const AuditEntrySchema = z.object({
  revision: z.number().int(),
  sessionId: z.string(),
  path: z.array(z.string()),
  name: z.string().optional(),
  ops: z.array(AppliedOpSchema),
});

/**
 * How a unit ended, as its workflow's output records it: its commit (entries attributed to
 * its sessions, its body's output, how many descendant sessions' work it holds) or its
 * failure value.
 */
export const UnitResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('committed'),
    sessionId: z.string(),
    path: z.array(z.string()),
    output: z.unknown(),
    entries: z.array(AuditEntrySchema),
    descendants: z.number().int().nonnegative(),
    refused: z.object({ count: z.number().int().nonnegative(), calls: z.array(z.object({ tool: z.string(), error: z.string() })) }),
    attempt: z.number().int().positive(),
    usage: UsageSchema.optional(),
  }),
  z.object({ status: z.literal('failed'), failure: SessionFailureSchema, usage: UsageSchema.optional() }),
]);

/** See {@link UnitResultSchema}. */
export type UnitResult =
  | {
      readonly status: 'committed';
      readonly sessionId: string;
      readonly path: readonly string[];
      readonly output: unknown;
      readonly entries: readonly AuditEntry[];
      readonly descendants: number;
      /** The tool calls of the unit's own session that were refused (see `SessionOutcome`). */
      readonly refused: RefusedCalls;
      readonly attempt: number;
      /** What its sessions charged (absent: nothing, or recorded before usage was). */
      readonly usage?: UnitUsage;
    }
  | { readonly status: 'failed'; readonly failure: SessionFailure; readonly usage?: UnitUsage };

/** See {@link UsageSchema}. */
export type UnitUsage = z.infer<typeof UsageSchema>;
