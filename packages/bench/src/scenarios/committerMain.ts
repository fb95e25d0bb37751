/**
 * One committer process of the durable-merge scenarios: a runtime on a store shared with the
 * other processes (a PostgreSQL schema, or one file), `committers` root sessions in parallel
 * committing `perCommitter` changes each. Prints `{"type":"ready"}` once open, starts on a
 * `GO` line on stdin, prints `{"type":"done","ms":…}` when every merge is durable. Arguments:
 * one JSON object (see {@link CommitterOptions}).
 */
import { createInterface } from 'node:readline';
import { createRuntime } from '@cohort/runtime';
import { FileStore, describeOpenError } from '@cohort/store';
import type { Store } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { random } from '../measure.ts';
import { committers } from './committers.ts';

/** The store the processes share: a PostgreSQL schema, or one file on this machine. */
export type SharedStore =
  | { readonly kind: 'pg'; readonly url: string; readonly schema: string }
  | { readonly kind: 'file'; readonly path: string };

/** What the parent passes. */
export interface CommitterOptions {
  readonly store: SharedStore;
  readonly committers: number;
  readonly perCommitter: number;
  readonly size: number;
  readonly seed: number;
  readonly tag: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as CommitterOptions;
const shared = options.store;
const opened =
  shared.kind === 'pg'
    ? await PostgresStore.open({ url: shared.url, schema: shared.schema, poolSize: 2 })
    : await FileStore.open(shared.path, { idleCheckpointMs: 0 });
if (!opened.ok) {
  process.stderr.write(`${describeOpenError(opened.error)}\n`);
  process.exit(2);
}
const store: Store = opened.store;
const rt = createRuntime({ store });
await rt.ready;
process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'GO') break;
const t0 = performance.now();
await committers(rt, options.committers, options.perCommitter, options.size, random(options.seed), options.tag);
const ms = performance.now() - t0;
await rt.close();
process.stdout.write(`${JSON.stringify({ type: 'done', ms })}\n`);
process.exit(0);
