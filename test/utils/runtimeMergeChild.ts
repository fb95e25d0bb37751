/**
 * A Cohort process for the runtime kill test: a runtime over a FileStore runs root sessions
 * in a loop, several at once, each spawning children that add skills; it prints `ACK` for
 * every root commit the runtime acknowledged (durable), with the ids its ADDs landed under.
 * Speaks the merge protocol of packages/store/test/utils/mergeProtocol.ts.
 */
import { writeSync } from 'node:fs';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { openChildStore } from './childStore.ts';
import type { ChildStoreOptions } from './childStore.ts';

interface Options extends ChildStoreOptions {
  readonly prefix: string;
  readonly concurrent: number;
}

const line = (kind: string, payload: unknown) => writeSync(1, `${kind} ${JSON.stringify(payload)}\n`);

async function rootSession(s: Session, tag: string): Promise<void> {
  const children = [0, 1, 2].map((c) =>
    s.spawn(async (child: Session) => {
      for (let i = 0; i < 3; i++) await child.tools.add_skill({ section: 'harness', issue: `${tag} c${c} n${i}`, insight: 'x' });
      if (c === 2) throw new Error('this child always crashes: nothing of it may land');
    }),
  );
  await s.tools.add_skill({ section: 'context', issue: `${tag} root`, insight: 'y' });
  await Promise.all(children);
}

async function main(): Promise<void> {
  const { options, store } = await openChildStore<Options>(16);
  const rt = createRuntime({ store });
  await rt.ready;
  line('READY', { writerId: options.writerId, revision: rt.revision });
  let n = 0;
  const loop = async (): Promise<void> => {
    for (;;) {
      const tag = `${options.prefix}-${(n += 1)}`;
      const outcome = await rt.run((s) => rootSession(s, tag));
      if (outcome.status !== 'committed') continue;
      const adds = [...rt.book.skills()].filter((k) => k.issue.startsWith(`${tag} `)).map((k) => ({ id: k.id, issue: k.issue }));
      line('ACK', { session: tag, revision: outcome.revision, ops: adds.length, adds });
    }
  };
  await Promise.all(Array.from({ length: options.concurrent }, loop));
}

await main();
