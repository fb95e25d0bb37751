/**
 * Calls `onOrphaned` once the process that started this one has gone: its parent id changes
 * when the process is handed to init. `npx cohort watch` runs the bin under `sh -c`, and on
 * SIGTERM npm and the shell exit without passing the signal on, which would leave the watch
 * serving, unseen, for good. Returns a function that stops watching.
 *
 * @example
 * const release = whenOrphaned(() => stop());
 * // … later, on a clean stop:
 * release();
 */
export function whenOrphaned(onOrphaned: () => void, pollMs = 200): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
