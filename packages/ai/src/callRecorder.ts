import type { Session } from '@cohort/runtime';

/**
 * The key of a session's call recorder: a session that has a function under it records each
 * model call its agent makes, and gives the recorded reply instead of calling the model again
 * when it runs again (a durable session of `@cohort/durable` does: a call that returned before
 * a crash is paid once). A registered symbol, so a package offers a recorder without
 * depending on this one.
 */
export const CALL_RECORDER: unique symbol = Symbol.for('cohort.callRecorder') as never;

/**
 * Records `run`'s value as the session's next recorded call named `name`, or gives the value
 * recorded for it. The value is plain JSON data.
 */
export type CallRecorder = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/** The session's call recorder, or undefined (an ordinary session: every call is made). */
export function callRecorderOf(session: Session): CallRecorder | undefined {
  const recorder: unknown = (session as { [CALL_RECORDER]?: unknown })[CALL_RECORDER];
  return typeof recorder === 'function' ? (recorder.bind(session) as CallRecorder) : undefined;
}
