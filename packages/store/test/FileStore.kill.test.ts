import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import { seededRandom } from '../src/internal/SimDisk.ts';
import { scanJournal } from '../src/internal/scanJournal.ts';
import type { AckLine } from './utils/mergeProtocol.ts';
import { childCommand, spawnMergeChild } from './utils/spawnMergeChild.ts';
import type { MergeChild } from './utils/spawnMergeChild.ts';

const KILLS = 50;
const POOL = 2;
const BUDGET_MS = 50_000;

/** The journal's commit lines, in order. */
async function journalCommits(document: string) {
  const scan = scanJournal(new Uint8Array(await readFile(`${document}.journal`)));
  expect(scan.corruption).toBeNull();
  return scan.entries.flatMap((e) => (e.line.t === 'commit' ? [e.line] : []));
}

/** Reopens the store after a kill and checks every acknowledgement so far against it. */
async function verify(document: string, acks: readonly AckLine[]): Promise<void> {
  const opened = await FileStore.open(document, { idleCheckpointMs: 0, lockWaitMs: 10_000 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const store = opened.store;
  const commits = await journalCommits(document);
  // the book is the serial application of the journal
  let replayed = Skillbook.empty();
  for (const c of commits) {
    const r = replayed.replay(c.ops);
    expect(r.ok).toBe(true);
    if (r.ok) replayed = r.book;
  }
  expect(store.book.toJSON()).toBe(replayed.toJSON());
  // every acknowledged merge is there, whole, once, at its revision
  const bySession = new Map(commits.map((c) => [c.session, c]));
  expect(bySession.size).toBe(commits.length);
  for (const ack of acks) {
    const line = bySession.get(ack.session);
    expect(line, `acknowledged ${ack.session} is in the journal`).toBeDefined();
    expect(line?.rev).toBe(ack.revision);
    expect(line?.ops.length).toBe(ack.ops);
    for (const add of ack.adds) expect(store.book.get(add.id)?.issue).toBe(add.issue);
  }
  await store.close();
}

describe('FileStore under SIGKILL', () => {
  const children: MergeChild[] = [];
  let dir = '';
  afterAll(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('kill test - a merging process killed at random moments 50 times never loses an acknowledged merge or half-applies one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cohort-kill-'));
    const command = await childCommand();
    const document = join(dir, 'skillbook.json');
    const started = Date.now();
    const random = seededRandom(2026);
    let spawned = 0;
    const start = (): MergeChild => {
      const n = (spawned += 1);
      const child = spawnMergeChild({
        document, writerId: `child-${n}`, committers: 4, merges: 0, seed: n, prefix: `k${n}`,
        checkpointEvery: 8, idleCheckpointMs: 5, waitForGo: true,
      }, command);
      children.push(child);
      return child;
    };
    const pool = Array.from({ length: POOL }, start);
    const acks: AckLine[] = [];
    let kills = 0;
    while (kills < KILLS) {
      expect(Date.now() - started, 'the kill loop stays within its time budget').toBeLessThan(BUDGET_MS);
      const child = pool.shift() as MergeChild;
      pool.push(start());
      child.go();
      await child.ready;
      // a random moment: right away, or after some merges (mid-append, mid-checkpoint, idle)
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 120)));
      child.proc.kill('SIGKILL');
      const ended = await child.closed;
      expect(ended.signal).toBe('SIGKILL');
      kills += 1;
      acks.push(...child.acks);
      await verify(document, acks);
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(acks.length).toBeGreaterThan(KILLS);
  }, 60_000);
});
