/**
 * One process of scenario 7's many-process run: a runtime on a PostgresStore, `committers`
 * root sessions in parallel committing `perCommitter` changes each. Prints `{"type":"ready"}`
 * once open, starts on a `GO` line on stdin, prints `{"type":"done","ms":…}` when every merge
 * is durable. Arguments: one JSON object (see {@link PgCommitterOptions}).
 */
import { createInterface } from 'node:readline';
import { createRuntime } from '@cohort/runtime';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { random } from '../measure.ts';
import { committers } from './pgMerges.ts';

/** What the parent passes. */
export interface PgCommitterOptions {
  readonly url: string;
  readonly schema: string;
  readonly committers: number;
  readonly perCommitter: number;
  readonly size: number;
  readonly seed: number;
  readonly tag: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as PgCommitterOptions;
const opened = await PostgresStore.open({ url: options.url, schema: options.schema, poolSize: 2 });
if (!opened.ok) {
  process.stderr.write(`${describeOpenError(opened.error)}\n`);
  process.exit(2);
}
const rt = createRuntime({ store: opened.store });
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
