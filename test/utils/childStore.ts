import { FileStore, describeOpenError } from '@cohort/store';

/** What every store-writing child is told: the document it shares and its writer id. */
export interface ChildStoreOptions {
  readonly document: string;
  readonly writerId: string;
}

/**
 * The start of a child process that writes a FileStore shared with other processes: its
 * options (JSON in `argv[2]`), read once the parent says go (a line on stdin), and the store
 * opened as one writer among several (frequent checkpoints, a long wait for the writer lock).
 * A store that does not open ends the process with code 2, the reason on stderr.
 */
export async function openChildStore<O extends ChildStoreOptions>(checkpointEvery: number): Promise<{ options: O; store: FileStore }> {
  const options = JSON.parse(process.argv[2] ?? '{}') as O;
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  const opened = await FileStore.open(options.document, {
    writerId: options.writerId,
    checkpointEvery,
    idleCheckpointMs: 5,
    lockWaitMs: 30_000,
  });
  if (!opened.ok) {
    process.stderr.write(`${describeOpenError(opened.error)}\n`);
    process.exit(2);
  }
  return { options, store: opened.store };
}
