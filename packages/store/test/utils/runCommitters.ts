import { writeSync } from 'node:fs';
import { createIdAllocator, formatSkillId } from '@cohort/skillbook';
import type { Skillbook } from '@cohort/skillbook';
import type { Store } from '@cohort/store';
import { seededRandom } from '../../src/internal/SimDisk.ts';
import { makeCommit } from '../../src/testing/commitFixtures.ts';
import type { RawOp } from '../../src/testing/commitFixtures.ts';
import { formatLine } from './mergeProtocol.ts';
import type { AckLine } from './mergeProtocol.ts';

/** How a merging child works. */
export interface CommitterOptions {
  /** Concurrent committers (each appends, waits, appends again). */
  readonly committers: number;
  /** Merges to make in total before stopping (0: until killed). */
  readonly merges: number;
  readonly seed: number;
  /** Prefix of session ids and skill issues, unique per process run. */
  readonly prefix: string;
}

function opsFor(book: Skillbook, random: () => number, issue: string): RawOp[] {
  const ids = [...book.skills()].map((s) => s.id);
  const ops: RawOp[] = [{ type: 'ADD', section: random() < 0.8 ? 'context' : 'harness', issue, insight: `insight of ${issue}`, keywords: ['kill'] }];
  const pick = (): string => ids[Math.floor(random() * ids.length)] ?? '';
  if (ids.length > 0 && random() < 0.5) ops.push({ type: 'TAG', section: 'context', skill_id: pick(), metadata: { delta: random() < 0.7 ? 1 : -1 } });
  if (ids.length > 0 && random() < 0.3) ops.push({ type: 'UPDATE', section: 'context', skill_id: pick(), insight: `rewritten by ${issue}` });
  if (random() < 0.3) ops.push({ type: 'ADD', section: 'context', issue: `${issue} (second)`, insight: 'more' });
  return ops;
}

/**
 * Runs concurrent committers against `store`, printing an `ACK` line (synchronously, so a
 * kill right after cannot lose it) for every acknowledged merge. Each committer bases its
 * commit on the newest book the store has acknowledged, so commits race and the store must
 * sequence, rebase or refuse them. Returns the number of acknowledgements.
 */
export async function runCommitters(store: Store, options: CommitterOptions): Promise<number> {
  const random = seededRandom(options.seed);
  let latest = (await store.load()).book;
  const ids = createIdAllocator(latest.nextId);
  let started = 0;
  let acks = 0;
  const committer = async (): Promise<void> => {
    while (options.merges === 0 || started < options.merges) {
      const n = (started += 1);
      const session = `${options.prefix}-${n}`;
      // as the runtime does after loading: never allocate below the book's own counter
      ids.observe(formatSkillId('context', latest.nextId));
      const made = makeCommit(latest, opsFor(latest, random, `${session} skill`), { ids, sessionId: session, basis: 'store', at: Date.now() });
      const result = await store.append(made.commit);
      if (!result.ok) continue;
      if (result.book.revision > latest.revision) latest = result.book;
      for (const id of Object.values(result.idMap ?? {})) ids.observe(id);
      const map = result.idMap ?? {};
      const ack: AckLine = {
        session, revision: result.revision, ops: made.ops.length,
        adds: made.ops.filter((op) => op.type === 'ADD').map((op) => ({ id: map[op.skill_id] ?? op.skill_id, issue: op.issue ?? '' })),
      };
      writeSync(1, formatLine('ACK', ack));
      acks += 1;
    }
  };
  await Promise.all(Array.from({ length: options.committers }, () => committer()));
  return acks;
}
