import { z } from 'zod';

/** Every way a session can end without its work reaching its parent. */
export const FailureKindSchema = z.enum([
  'crashed',
  'aborted',
  'timeout',
  'cancelled',
  'budget_exhausted',
  'conflict',
  'invalid_commit',
  'limit_exceeded',
]);
/** A failure's kind. Crashes are defects; aborts, timeouts and cancellations are interruptions. */
export type FailureKind = z.infer<typeof FailureKindSchema>;

/** A serialisable error with its whole cause chain. */
export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
  readonly code?: string | undefined;
  readonly cause?: ErrorInfo | undefined;
}

/** The zod schema of {@link ErrorInfo}, recursive through `cause`. */
export const ErrorInfoSchema: z.ZodType<ErrorInfo> = z.lazy(() =>
  z.object({
    name: z.string(),
    message: z.string(),
    stack: z.string().optional(),
    code: z.string().optional(),
    cause: ErrorInfoSchema.optional(),
  }),
);

/** One conflicting op of a rejected or rebased commit. */
export const ConflictSchema = z.object({
  opIndex: z.number().int(),
  type: z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']),
  skillId: z.string(),
  reason: z.enum(['content_changed', 'removed', 'id_exists']),
  revision: z.number().int(),
});

/**
 * The one structured value every failure becomes: never a thrown exception across an actor
 * boundary, never a prose string, never a partial write.
 */
export const SessionFailureSchema = z.object({
  kind: FailureKindSchema,
  sessionId: z.string(),
  path: z.array(z.string()),
  message: z.string(),
  error: ErrorInfoSchema.optional(),
  conflicts: z.array(ConflictSchema).optional(),
  discarded: z.object({ ops: z.number().int().nonnegative(), descendants: z.number().int().nonnegative() }),
  attempt: z.number().int().positive(),
  at: z.number(),
});
/** See {@link SessionFailureSchema}. */
export type SessionFailure = z.infer<typeof SessionFailureSchema>;

const MAX_CAUSE_DEPTH = 16;

/**
 * Turns anything thrown into an {@link ErrorInfo}, keeping the `cause` chain (bounded, and safe
 * against cycles and hostile getters). Non-Error values become `{ name: 'NonError' }`.
 *
 * @example
 * toErrorInfo(new Error('outer', { cause: new Error('inner') })).cause?.message; // 'inner'
 */
export function toErrorInfo(thrown: unknown, depth = 0, seen = new Set<unknown>()): ErrorInfo {
  try {
    if (thrown instanceof Error) {
      seen.add(thrown);
      const code = (thrown as { code?: unknown }).code;
      const rawCause = (thrown as { cause?: unknown }).cause;
      const hasCause = rawCause !== undefined && depth < MAX_CAUSE_DEPTH && !seen.has(rawCause);
      return {
        name: String(thrown.name),
        message: String(thrown.message),
        ...(typeof thrown.stack === 'string' ? { stack: thrown.stack } : {}),
        ...(code !== undefined && code !== null ? { code: String(code) } : {}),
        ...(hasCause ? { cause: toErrorInfo(rawCause, depth + 1, seen) } : {}),
      };
    }
    return { name: 'NonError', message: describeValue(thrown) };
  } catch {
    return { name: 'UnreadableError', message: 'the thrown value could not be read' };
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
