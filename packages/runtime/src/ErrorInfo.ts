import { z } from 'zod';

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

/**
 * A thrown value in one line, for a failure's message: an Error's message, a string as it
 * is, anything else as JSON.
 *
 * @example
 * describeThrown(new Error('boom')); // 'boom'
 */
export function describeThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message;
    return typeof thrown === 'string' ? thrown : `non-Error value thrown: ${JSON.stringify(thrown) ?? String(thrown)}`;
  } catch {
    return 'a value that cannot be described was thrown';
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
