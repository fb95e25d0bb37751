import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import { blocksOf } from '../src/internal/journal/JournalLine.ts';
import { scanJournal } from '../src/internal/journal/scanJournal.ts';
import { childrenRoom, spawnMergeChild } from './utils/spawnMergeChild.ts';
import type { MergeChild } from './utils/spawnMergeChild.ts';

const MERGES = 120;

describe('FileStore with two Cohort processes', () => {
  const room = childrenRoom();
  const children = room.children;

  it('two processes - merging concurrently on one document, no acknowledged merge is lost and ids stay unique', async () => {
    const { document, command } = await room.open('cohort-two-');
    const spawnOne = (name: string, seed: number): MergeChild => {
      const child = spawnMergeChild(
        {
          document,
          writerId: name,
          committers: 3,
          merges: MERGES,
          seed,
          prefix: name,
          checkpointEvery: 16,
          idleCheckpointMs: 10,
          waitForGo: true,
        },
        command,
      );
      children.push(child);
      return child;
    };
    const a = spawnOne('alpha', 1);
    const b = spawnOne('beta', 2);
    a.go();
    b.go();
    const [endA, endB] = await Promise.all([a.closed, b.closed]);
    expect(endA.code, endA.stderr).toBe(0);
    expect(endB.code, endB.stderr).toBe(0);
    const acks = [...a.acks, ...b.acks];
    expect(a.acks.length).toBeGreaterThan(MERGES / 2);
    expect(b.acks.length).toBeGreaterThan(MERGES / 2);

    const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    const book = opened.store.book;
    // ids are unique across both: no id is claimed by two acknowledgements, and each holds its own skill
    const owners = new Map<string, string>();
    for (const ack of acks) {
      for (const add of ack.adds) {
        expect(owners.has(add.id), `${add.id} claimed twice`).toBe(false);
        owners.set(add.id, ack.session);
        expect(book.get(add.id)?.issue).toBe(add.issue);
      }
    }
    // revisions are unique, and the book is the serial application of the one journal both wrote
    expect(new Set(acks.map((k) => k.revision)).size).toBe(acks.length);
    const scan = scanJournal(new Uint8Array(await readFile(`${document}.journal`)));
    const commits = scan.entries.flatMap((e) => (e.line.t === 'commit' ? [e.line] : []));
    expect(new Set(commits.map((c) => c.writer))).toEqual(new Set(['alpha', 'beta']));
    let replayed = Skillbook.empty();
    for (const c of commits) {
      const r = replayed.replay(blocksOf(c).flatMap((b) => b.ops));
      if (!r.ok) throw new Error(r.error.message);
      replayed = r.book;
    }
    // (its `next_id` is past the leases too, which are not changes of the book)
    expect(book.toJSON()).toBe(replayed.reserveIds(book.nextId).toJSON());
    const journaled = new Set(commits.map((c) => c.session));
    for (const ack of acks) expect(journaled.has(ack.session)).toBe(true);
    await opened.store.close();
  }, 60_000);
});
