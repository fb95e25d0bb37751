/**
 * One committer process of the durable-merge scenarios: a runtime on a store shared with the
 * other processes (a PostgreSQL schema, or one file), `committers` root sessions in parallel
 * committing `perCommitter` changes each. Prints `{"type":"ready"}` once open, starts on a
 * `GO` line on stdin, prints `{"type":"done","ms":…,"cpuMs":…}` when every merge is durable
 * (`cpuMs`: the processor time this process spent meanwhile). With `follow`, it commits
 * nothing: a replica that only follows the book, done once its store took in the revision
 * that its `GO <revision>` line names. Arguments: one JSON object (see {@link CommitterOptions}).
 *
 * Before it reports ready, the process warms up as a long-running replica is warm: the same
 * workload on a book of the same size in memory (`warmUp` merges per committer), then one merge per committer on the shared
 * store (every process count adds the same 64 skills to it). A cold process would otherwise
 * spend its first merges compiling, and more processes would mean more of them cold.
 */
import { createInterface } from 'node:readline';
import { createRuntime } from '@cohort/runtime';
import { FileStore, MemoryStore, describeOpenError } from '@cohort/store';
import type { Store } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { filter, firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { buildBook } from '../books.ts';
import { childInput } from '../children.ts';
import { random } from '../measure.ts';
import { committers } from './committers.ts';

/** The store the processes share: a PostgreSQL schema, or one file on this machine. */
const SharedStoreSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pg'), url: z.string(), schema: z.string() }).readonly(),
  z.object({ kind: z.literal('file'), path: z.string() }).readonly(),
]);
export type SharedStore = z.infer<typeof SharedStoreSchema>;

/** What the parent passes. */
const CommitterOptionsSchema = z
  .object({
    store: SharedStoreSchema,
    committers: z.number().int().positive(),
    perCommitter: z.number().int().nonnegative(),
    size: z.number().int().positive(),
    seed: z.number().int(),
    tag: z.string(),
    /** Merges per committer in memory before the shared store is touched. */
    warmUp: z.number().int().nonnegative(),
    /** Commit nothing: follow the book, up to the revision the `GO` line names. */
    follow: z.literal(true).optional(),
  })
  .readonly();
export type CommitterOptions = z.infer<typeof CommitterOptionsSchema>;

const options = childInput(CommitterOptionsSchema, 'committer process');
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
if (options.warmUp > 0) {
  const warm = createRuntime({ store: new MemoryStore(buildBook(options.size)) });
  await committers(warm, options.committers, options.warmUp, options.size, random(options.seed), `${options.tag}.warm`);
  await warm.close();
}
const rt = createRuntime({ store });
await rt.ready;
if (!options.follow) await committers(rt, options.committers, 1, options.size, random(options.seed), `${options.tag}.shared`);
process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);
const lines = createInterface({ input: process.stdin });
let go = '';
for await (const line of lines) {
  go = line.trim();
  if (go.startsWith('GO')) break;
}
const t0 = performance.now();
const cpu0 = process.cpuUsage();
if (!options.follow) {
  await committers(rt, options.committers, options.perCommitter, options.size, random(options.seed), options.tag);
} else {
  await followed(Number(go.slice(2)));
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
await rt.close();
process.stdout.write(`${JSON.stringify({ type: 'done', ms, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
process.exit(0);

/** Resolves once the store (a PostgreSQL one, which tells of other writers' commits) took in revision `until`. */
function followed(until: number): Promise<unknown> {
  if (!(store instanceof PostgresStore)) throw new Error('committer process: only a PostgreSQL store is followed');
  if (!Number.isSafeInteger(until)) throw new Error(`committer process: no revision to follow to in its GO line (${go})`);
  return firstValueFrom(store.external$.pipe(filter((snapshot) => snapshot.revision >= until)));
}
