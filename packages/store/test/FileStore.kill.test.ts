import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import { seededRandom } from '../src/internal/disk/SimDisk.ts';
import { blocksOf } from '../src/internal/journal/JournalLine.ts';
import type { CommitLine, CommitLineV1 } from '../src/internal/journal/JournalLine.ts';
import { scanJournal } from '../src/internal/journal/scanJournal.ts';
import type { AckLine } from './utils/mergeProtocol.ts';
import { childrenRoom, spawnMergeChild } from './utils/spawnMergeChild.ts';
import type { MergeChild } from './utils/spawnMergeChild.ts';

const KILLS = 50;
const POOL = 3;

/** The serial application of the journal, kept across reopenings (the journal only grows). */
interface Replay {
  book: Skillbook;
  lines: number;
  readonly sessions: Map<string, CommitLine | CommitLineV1>;
}

/** Reopens the store after a kill and checks every acknowledgement so far against it. */
async function verify(document: string, acks: readonly AckLine[], replay: Replay): Promise<void> {
  const opened = await FileStore.open(document, { idleCheckpointMs: 0, lockWaitMs: 10_000 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const store = opened.store;
  const scan = scanJournal(new Uint8Array(await readFile(`${document}.journal`)));
  expect(scan.corruption).toBeNull();
  expect(scan.tail).toBeNull();
  // lines verified before are still there, unchanged: the journal is append-only
  expect(scan.entries.length).toBeGreaterThanOrEqual(replay.lines);
  for (const e of scan.entries.slice(replay.lines)) {
    if (e.line.t !== 'commit') continue;
    expect(replay.sessions.has(e.line.session), `${e.line.session} is journaled once`).toBe(false);
    replay.sessions.set(e.line.session, e.line);
    const r = replay.book.replay(blocksOf(e.line).flatMap((b) => b.ops));
    expect(r.ok).toBe(true);
    if (r.ok) replay.book = r.book;
  }
  replay.lines = scan.entries.length;
  // the book is the serial application of the journal
  // (its `next_id` is past the leases too, which are not changes of the book)
  expect(store.book.toJSON()).toBe(replay.book.reserveIds(store.book.nextId).toJSON());
  // every acknowledged merge is there, whole, once, at its revision
  for (const ack of acks) {
    const line = replay.sessions.get(ack.session);
    expect(line, `acknowledged ${ack.session} is in the journal`).toBeDefined();
    expect(line?.rev).toBe(ack.revision);
    expect(line ? blocksOf(line).flatMap((b) => b.ops).length : -1).toBe(ack.ops);
    for (const add of ack.adds) expect(store.book.get(add.id)?.issue).toBe(add.issue);
  }
  await store.close();
}

/** Waits until the child printed an acknowledgement (or `ms` passed, or it ended). */
async function untilAcknowledged(child: MergeChild, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let ended = false;
  void child.closed.then(() => (ended = true));
  while (child.acks.length === 0 && !ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('FileStore under SIGKILL', () => {
  const room = childrenRoom();
  const children = room.children;

  it('kill test - a merging process killed at random moments 50 times never loses an acknowledged merge or half-applies one', async () => {
    const { document, command } = await room.open('cohort-kill-');
    const random = seededRandom(2026);
    let spawned = 0;
    const start = (): MergeChild => {
      const n = (spawned += 1);
      const child = spawnMergeChild(
        {
          document,
          writerId: `child-${n}`,
          committers: 4,
          merges: 0,
          seed: n,
          prefix: `k${n}`,
          checkpointEvery: 8,
          idleCheckpointMs: 5,
          waitForGo: true,
        },
        command,
      );
      children.push(child);
      return child;
    };
    const pool = Array.from({ length: POOL }, start);
    const acks: AckLine[] = [];
    let kills = 0;
    const replay: Replay = { book: Skillbook.empty(), lines: 0, sessions: new Map() };
    while (kills < KILLS) {
      const child = pool.shift() as MergeChild;
      pool.push(start());
      child.go();
      await child.ready;
      // a random moment: mostly once it has merged something (mid-append, mid-checkpoint, idle), sometimes right away
      if (random() < 0.75) await untilAcknowledged(child, 5_000);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 40)));
      child.proc.kill('SIGKILL');
      const ended = await child.closed;
      expect(ended.signal).toBe('SIGKILL');
      kills += 1;
      acks.push(...child.acks);
      await verify(document, acks, replay);
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(acks.length).toBeGreaterThanOrEqual(KILLS / 2);
  }, 180_000); // a bound on a hang, not a speed target: the machine may be loaded
});
