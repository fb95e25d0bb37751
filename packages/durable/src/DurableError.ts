/** Stable codes of the programmer errors `@cohort/durable` throws. */
export type DurableErrorCode =
  | 'DURABLE_INVALID_OPTIONS'
  | 'DURABLE_UNREGISTERED_BODY'
  | 'DURABLE_UNSERIALISABLE'
  | 'DURABLE_ALREADY_OPEN'
  | 'DURABLE_CLOSED'
  | 'DURABLE_UNKNOWN_RUN'
  | 'DURABLE_UNREACHABLE'
  | 'DURABLE_OTHER_VERSION'
  | 'DURABLE_STORE_UNAVAILABLE';

/**
 * A programmer error of `@cohort/durable`, with a stable `code`: options its schema refuses, a
 * body that is not registered, an input that cannot be recorded. Everything that happens while
 * a tree runs is a failure value instead, as in `@cohort/runtime`.
 *
 * @example
 * try {
 *   await durable.run('nobody', {}, { id: 'run-1' });
 * } catch (err) {
 *   if (isDurableError(err)) console.log(err.code); // 'DURABLE_UNREGISTERED_BODY'
 * }
 */
export class DurableError extends Error {
  override readonly name = 'DurableError';

  constructor(
    readonly code: DurableErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Whether `err` is a {@link DurableError} (any copy of the package). */
export function isDurableError(err: unknown): err is DurableError {
  return err instanceof Error && err.name === 'DurableError' && typeof (err as { code?: unknown }).code === 'string';
}
