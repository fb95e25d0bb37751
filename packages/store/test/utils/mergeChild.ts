/**
 * A Cohort process that merges in a loop, for the kill and two-process tests:
 * `node --import tsx mergeChild.ts '<json options>'`. With `waitForGo` it opens the store only
 * after reading `GO` on stdin (so the test can start it early and hide the start-up time).
 */
import { writeSync } from 'node:fs';
import { FileStore, describeOpenError } from '@cohort/store';
import { formatLine } from './mergeProtocol.ts';
import { runCommitters } from './runCommitters.ts';

interface ChildOptions {
  readonly document: string;
  readonly writerId: string;
  readonly committers: number;
  readonly merges: number;
  readonly seed: number;
  readonly prefix: string;
  readonly checkpointEvery: number;
  readonly idleCheckpointMs: number;
  readonly waitForGo: boolean;
}

async function waitForGo(): Promise<void> {
  await new Promise<void>((resolve) => {
    let text = '';
    process.stdin.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('GO')) resolve();
    });
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
  if (options.waitForGo) await waitForGo();
  const opened = await FileStore.open(options.document, {
    writerId: options.writerId,
    checkpointEvery: options.checkpointEvery,
    idleCheckpointMs: options.idleCheckpointMs,
    lockWaitMs: 30_000,
  });
  if (!opened.ok) {
    process.stderr.write(`${describeOpenError(opened.error)}\n`);
    process.exit(2);
  }
  const store = opened.store;
  writeSync(1, formatLine('READY', { writerId: store.writerId, revision: store.book.revision }));
  const acks = await runCommitters(store, options);
  await store.close();
  writeSync(1, formatLine('DONE', { acks }));
  process.exit(0);
}

void main();
