import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { GroupCommitQueue } from '@cohort/store/adapter';
import type { ItemResult, QueuedItem } from '@cohort/store/adapter';
import { addOp, makeCommit } from '@cohort/store/testing';

const commit = makeCommit(Skillbook.empty(), [addOp('a')]).commit;
const granted = (from: number): ItemResult => ({ kind: 'lease', result: { ok: true, lease: { from, to: from + 1 } } });

/** A queue whose writer records each group's lease counts and grants each lease at its count. */
function recording(): { queue: GroupCommitQueue; groups: number[][]; gate: { open: () => void } } {
  const groups: number[][] = [];
  let release: () => void = () => undefined;
  let first = true;
  const queue = new GroupCommitQueue(async (group: readonly QueuedItem[]) => {
    groups.push(group.map((q) => (q.item.kind === 'lease' ? q.item.count : -1)));
    if (first) {
      first = false;
      await new Promise<void>((resolve) => (release = resolve));
    }
    for (const q of group) if (q.item.kind === 'lease') q.answer(granted(q.item.count));
  });
  return { queue, groups, gate: { open: () => release() } };
}

describe('GroupCommitQueue', () => {
  it('submit - what is submitted while a group is written goes together in the next group, each answered with its own result', async () => {
    const { queue, groups, gate } = recording();
    const first = queue.lease(1);
    await Promise.resolve();
    const later = [queue.lease(2), queue.lease(3), queue.lease(4)];
    gate.open();
    const results = await Promise.all([first, ...later]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
    expect(results.map((r) => (r.ok ? r.lease.from : null))).toEqual([1, 2, 3, 4]);
  });

  it('run - tasks run one at a time, in the order they were queued with the groups', async () => {
    const order: string[] = [];
    const queue = new GroupCommitQueue(async (group) => {
      order.push(`group of ${group.length}`);
      for (const q of group) q.answer(granted(1));
    });
    const task = (name: string) => queue.run(async () => void order.push(name));
    const done = [task('task 1'), queue.lease(1), queue.lease(1), task('task 2')];
    await Promise.all(done);
    await queue.idle();
    expect(order).toEqual(['task 1', 'group of 2', 'task 2']);
  });

  it('answer - unanswered, answered with another kind, or in a group that threw: refused as io; a second answer is ignored', async () => {
    const silent = new GroupCommitQueue(async () => undefined);
    const wrong = new GroupCommitQueue(async (group) => {
      for (const q of group) {
        q.answer(granted(7));
        q.answer({ kind: 'append', result: { ok: true, revision: 1, book: Skillbook.empty() } });
      }
    });
    const throwing = new GroupCommitQueue(async () => {
      throw new Error('disk on fire');
    });
    const twice = new GroupCommitQueue(async (group) => {
      for (const q of group) {
        q.answer(granted(5));
        q.answer(granted(6));
      }
    });
    const code = (r: { ok: boolean; error?: { code: string; message: string } }) => (r.ok ? 'ok' : `${r.error?.code}: ${r.error?.message}`);
    expect(code(await silent.append(commit))).toMatch(/^io: internal/);
    expect(code(await wrong.append(commit))).toBe('io: internal: a result of another kind');
    expect(code(await throwing.lease(1))).toBe('io: the group could not be written: disk on fire');
    const answered = await twice.lease(1);
    expect(answered.ok ? answered.lease.from : null).toBe(5);
  });
});
