import { writeSync } from 'node:fs';
import { formatSkillId } from '@cohort/skillbook';
import type { Section, Skillbook, SkillId } from '@cohort/skillbook';
import type { IdLease, Store } from '@cohort/store';
import { seededRandom } from '../../src/internal/disk/SimDisk.ts';
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
  const ops: RawOp[] = [
    { type: 'ADD', section: random() < 0.8 ? 'context' : 'harness', issue, insight: `insight of ${issue}`, keywords: ['kill'] },
  ];
  const pick = (): string => ids[Math.floor(random() * ids.length)] ?? '';
  if (ids.length > 0 && random() < 0.5)
    ops.push({ type: 'TAG', section: 'context', skill_id: pick(), metadata: { delta: random() < 0.7 ? 1 : -1 } });
  if (ids.length > 0 && random() < 0.3)
    ops.push({ type: 'UPDATE', section: 'context', skill_id: pick(), insight: `rewritten by ${issue}` });
  if (random() < 0.3) ops.push({ type: 'ADD', section: 'context', issue: `${issue} (second)`, insight: 'more' });
  return ops;
}

/** Ids drawn from the store's leases, a block at a time (a committer asks for a new block before it needs one). */
class LeasedIds {
  private leases: IdLease[] = [];
  private next = 0;

  constructor(private readonly store: Store) {}

  /** Makes sure at least `count` ids are at hand. */
  async reserve(count: number): Promise<void> {
    while (this.available() < count) {
      const granted = await this.store.leaseIds(32);
      if (!granted.ok) throw new Error(`lease refused: ${granted.error.message}`);
      this.leases.push(granted.lease);
    }
  }

  private available(): number {
    return this.leases.reduce((n, l) => n + l.to - Math.max(l.from, this.next), 0);
  }

  readonly allocate = (section: Section): SkillId => {
    const lease = this.leases[0];
    if (!lease) throw new Error('no lease at hand');
    this.next = Math.max(this.next, lease.from);
    const id = formatSkillId(section, this.next);
    this.next += 1;
    if (this.next >= lease.to) this.leases.shift();
    return id;
  };
}

/**
 * Runs concurrent committers against `store`, printing an `ACK` line (synchronously, so a
 * kill right after cannot lose it) for every acknowledged merge. Each committer bases its
 * commit on the newest book the store has acknowledged, so commits race and the store must
 * sequence, rebase or refuse them; ADD ids come from leases, so the id an acknowledgement
 * reports is final. Returns the number of acknowledgements.
 */
export async function runCommitters(store: Store, options: CommitterOptions): Promise<number> {
  const random = seededRandom(options.seed);
  let latest = (await store.load()).book;
  const leased = new LeasedIds(store);
  const ids = { allocate: leased.allocate, next: 0, observe: () => undefined };
  let started = 0;
  let acks = 0;
  const committer = async (): Promise<void> => {
    while (options.merges === 0 || started < options.merges) {
      const n = (started += 1);
      const session = `${options.prefix}-${n}`;
      // enough for every committer's next commit: they run between this one's wait and its commit
      await leased.reserve(2 * options.committers);
      const made = makeCommit(latest, opsFor(latest, random, `${session} skill`), {
        ids,
        sessionId: session,
        basis: 'store',
        at: Date.now(),
        allocation: 'leased',
      });
      const result = await store.append(made.commit);
      if (!result.ok) continue;
      if (result.book.revision > latest.revision) latest = result.book;
      const ack: AckLine = {
        session,
        revision: result.revision,
        ops: made.ops.length,
        adds: made.ops.filter((op) => op.type === 'ADD').map((op) => ({ id: op.skill_id, issue: op.issue ?? '' })),
      };
      writeSync(1, formatLine('ACK', ack));
      acks += 1;
    }
  };
  await Promise.all(Array.from({ length: options.committers }, () => committer()));
  return acks;
}
