import type { Runtime, Session, SessionOutcome } from '@cohort/runtime';

/** A long-lived root session that runs jobs handed to it from outside (see {@link driveRoot}). */
export interface RootDriver {
  /** Runs `job` inside the root session and resolves with its result. */
  exec<T>(job: (root: Session) => Promise<T>): Promise<T>;
  /** Ends the root session (it commits what its children merged) and resolves with its outcome. */
  finish(): Promise<SessionOutcome>;
}

interface Job {
  readonly run: (root: Session) => Promise<void>;
}

/**
 * Opens a root session on `rt` that stays open and runs jobs one at a time, so a benchmark can
 * time single child sessions in a warm runtime and alternate between runtimes (a book of 1,000
 * skills, then one of 100,000, then again) instead of measuring one after the other.
 */
export function driveRoot(rt: Runtime): RootDriver {
  const queue: (Job | null)[] = [];
  let wake: (() => void) | null = null;
  const next = async (): Promise<Job | null> => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift() ?? null;
  };
  const push = (job: Job | null): void => {
    queue.push(job);
    wake?.();
    wake = null;
  };
  const outcome = rt.run(async (root) => {
    for (let job = await next(); job; job = await next()) await job.run(root);
  });
  return {
    exec: <T>(job: (root: Session) => Promise<T>) =>
      new Promise<T>((resolve, reject) => push({ run: (root) => job(root).then(resolve, reject) })),
    finish: () => {
      push(null);
      return outcome;
    },
  };
}
