import { afterAll, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { describeOpenError } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { PostgresStore } from '@cohort/store-postgres';
import { PrivateServer } from './utils/PrivateServer.ts';
import { runtimeChildCommand, startRuntimeChild, verifyAcknowledged } from './utils/runtimeChildren.ts';
import type { ChildCommand, RuntimeChild } from './utils/runtimeChildren.ts';

let server: PrivateServer | null = null;
let command: ChildCommand | null = null;
const children: RuntimeChild[] = [];
afterAll(async () => {
  for (const c of children) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.closed));
  await command?.dispose();
  await server?.dispose();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once every child has printed more acknowledgements than it had (or `ms` passed). */
async function moreAcks(list: readonly RuntimeChild[], ms: number): Promise<void> {
  const before = list.map((c) => c.acks.length);
  for (let waited = 0; waited < ms && list.some((c, i) => c.acks.length <= (before[i] ?? 0)); waited += 25) await sleep(25);
}

describe('PostgresStore across a server restart', () => {
  it('server restart - a crash-restart of the server mid-run loses no acknowledged merge; the processes reconnect by themselves and merge on', async () => {
    server = await PrivateServer.start();
    const schema = 'restart';
    const seeded = makeCommit(Skillbook.empty(), [addOp('the hot skill')]).book;
    const opened = await PostgresStore.open({ url: server.url, schema, initialBook: seeded, listen: false });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    await opened.store.close();
    command = await runtimeChildCommand();
    for (const i of [1, 2])
      children.push(
        startRuntimeChild(command, { url: server.url, schema, writerId: `r${i}`, roots: 0, concurrency: 3, seed: i, hot: 'context-00001' }),
      );
    await moreAcks(children, 15_000);
    const before = children.map((c) => c.acks.length);
    await server.crashAndRestart(300);
    // merges go on after the restart, in both processes, without restarting them
    await moreAcks(children, 20_000);
    for (const [i, c] of children.entries()) expect(c.acks.length, `r${i + 1} merged after the restart`).toBeGreaterThan(before[i] ?? 0);
    for (const c of children) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.closed));
    // some merges were refused while the server was down (structured io failures, sessions failed)
    expect(children.flatMap((c) => c.fails).some((f) => f.kind === 'crashed')).toBe(true);
    await verifyAcknowledged(
      server.url,
      schema,
      children.flatMap((c) => c.acks),
    );
  }, 120_000);
});
