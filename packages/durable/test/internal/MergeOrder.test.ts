import { describe, expect, it } from 'vitest';
import { MergeOrder } from '../../src/internal/MergeOrder.ts';
import type { Journal } from '../../src/internal/Journal.ts';
import { MemoryJournal } from '../utils/MemoryJournal.ts';

/** Lets pending promise callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 5));

/** A merge order of unit `u` on `journal`, loaded. */
async function orderOn(journal: MemoryJournal): Promise<MergeOrder> {
  const order = new MergeOrder(journal as unknown as Journal, 'u');
  await order.load();
  return order;
}

/** The merge order of a resumed unit whose journal recorded `merges` of session `0`'s children, in order, each with its place. */
async function resumedWith(...merges: readonly (readonly [child: string, after: unknown])[]): Promise<MergeOrder> {
  const journal = new MemoryJournal();
  for (const [i, [child, after]] of merges.entries()) {
    await journal.record('u', `order:0:${i}`, child);
    await journal.record('u', `after:0:${i}`, after);
  }
  return orderOn(journal);
}

/** A child of session `0` that waits for its turn, merges (into `merged`), and ends its turn (unless `hold`). */
function merger(order: MergeOrder, merged: string[], options: { readonly hold?: boolean } = {}) {
  return async (child: string): Promise<void> => {
    await order.turn('0', child);
    merged.push(child);
    if (!options.hold) order.done('0', child);
  };
}

describe('MergeOrder', () => {
  it('records arrivals in arrival order, one turn at a time', async () => {
    const journal = new MemoryJournal();
    const order = await orderOn(journal);
    const merged: string[] = [];
    const take = merger(order, merged, { hold: true });
    const b = take('0.2');
    await settle();
    const a = take('0.1');
    await settle();
    expect(merged).toEqual(['0.2']);
    order.done('0', '0.2');
    await Promise.all([a, b]);
    expect(merged).toEqual(['0.2', '0.1']);
    expect(journal.rows('u')).toEqual({ 'order:0:0': '0.2', 'order:0:1': '0.1' });
  });

  it('a resumed run merges recorded children in the recorded order, whatever order they arrive in, then new ones', async () => {
    const journal = new MemoryJournal();
    await journal.record('u', 'order:0:0', '0.3');
    await journal.record('u', 'order:0:1', '0.1');
    const order = await orderOn(journal);
    const merged: string[] = [];
    const take = merger(order, merged);
    // they arrive 0.2 (not recorded), 0.1, 0.3: merged 0.3, 0.1 as recorded, then 0.2
    await Promise.all([take('0.2'), take('0.1'), take('0.3')]);
    expect(merged).toEqual(['0.3', '0.1', '0.2']);
    expect(journal.rows('u')['order:0:2']).toBe('0.2');
  });

  it('keeps one line per session', async () => {
    const journal = new MemoryJournal();
    const order = await orderOn(journal);
    await order.turn('0', '0.1');
    await order.turn('0.1', '0.1.1');
    expect(journal.rows('u')).toEqual({ 'order:0:0': '0.1', 'order:0.1:0': '0.1.1' });
  });

  it('records where each merge fell among its session’s own writes', async () => {
    const journal = new MemoryJournal();
    const order = await orderOn(journal);
    await order.turn('0', '0.1');
    order.merged('0', '0.1', { writes: 0, spawns: 2 });
    order.done('0', '0.1');
    order.wrote('0', 1);
    order.wrote('0', 2);
    await order.turn('0', '0.2');
    order.merged('0', '0.2', { writes: 2, spawns: 2 });
    // a merge's place is recorded once
    order.merged('0', '0.2', { writes: 3, spawns: 2 });
    await order.recorded();
    expect(journal.rows('u')).toEqual({
      'order:0:0': '0.1',
      'after:0:0': { writes: 0, spawns: 2 },
      'order:0:1': '0.2',
      'after:0:1': { writes: 2, spawns: 2 },
    });
  });

  it('a resumed run holds a recorded merge until its session made as many own writes as before, and its body while it is due', async () => {
    const order = await resumedWith(['0.1', 0], ['0.2', 2]);
    const merged: string[] = [];
    const take = merger(order, merged);
    order.spawned('0', '0.1', 0);
    order.spawned('0', '0.2', 0);
    // recorded after no own write: it goes at once
    await take('0.1');
    const second = take('0.2');
    await settle();
    expect(merged).toEqual(['0.1']);
    order.wrote('0', 1);
    await settle();
    expect(merged, 'one write short').toEqual(['0.1']);
    order.wrote('0', 2);
    // the body waits while the merge recorded at this point is still to come
    const body = order.settled('0').then(() => merged.length);
    await second;
    expect(await body).toBe(2);
    expect(merged).toEqual(['0.1', '0.2']);
  });

  it('a resumed run holds a recorded merge until its session made the spawns it had made before it, not only the writes', async () => {
    // before the crash: 0.1 merged after one own write and both spawns
    const order = await resumedWith(['0.1', { writes: 1, spawns: 2 }]);
    const merged: string[] = [];
    order.wrote('0', 1);
    order.spawning('0', 1);
    order.spawned('0', '0.1', 1);
    const first = merger(order, merged)('0.1');
    // the body goes on to its second spawn: the merge is not due before it
    await order.settled('0');
    await settle();
    expect(merged, 'the second spawn starts on the draft without 0.1, as before').toEqual([]);
    order.spawning('0', 2);
    await first;
    expect(merged).toEqual(['0.1']);
  });

  it('a resumed run reads a merge recorded as a bare count of own writes as placed by those writes alone', async () => {
    const order = await resumedWith(['0.1', 1]);
    const merged: string[] = [];
    order.spawning('0', 1);
    order.spawned('0', '0.1', 0);
    const first = merger(order, merged)('0.1');
    await settle();
    expect(merged).toEqual([]);
    order.wrote('0', 1);
    await first;
    expect(merged).toEqual(['0.1']);
  });

  it('a body is not held by a recorded merge of a child it has not spawned again yet', async () => {
    const order = await resumedWith(['0.2', 0]);
    // the body spawns 0.2 only after what it waits for now: holding it would never end
    await order.settled('0');
    order.spawned('0', '0.2', 0);
    let released = false;
    const held = order.settled('0').then(() => {
      released = true;
    });
    await settle();
    expect(released).toBe(false);
    await order.turn('0', '0.2');
    order.done('0', '0.2');
    await held;
    expect(released).toBe(true);
  });

  it('a body is held by a recorded merge behind a child in line that has no place (it failed), until both are taken in', async () => {
    // recorded: 0.2 failed first (no place), then 0.1 merged after both spawns and no own write
    const journal = new MemoryJournal();
    await journal.record('u', 'order:0:0', '0.2');
    await journal.record('u', 'order:0:1', '0.1');
    await journal.record('u', 'after:0:1', { writes: 0, spawns: 2 });
    const order = await orderOn(journal);
    const merged: string[] = [];
    order.spawning('0', 1);
    order.spawned('0', '0.1', 0);
    order.spawning('0', 2);
    order.spawned('0', '0.2', 0);
    let released = false;
    const held = order.settled('0').then(() => {
      released = true;
    });
    const take = merger(order, merged);
    const second = take('0.1');
    await settle();
    expect(released, 'the body would write before the merge of 0.1').toBe(false);
    await take('0.2');
    await Promise.all([second, held]);
    expect(merged).toEqual(['0.2', '0.1']);
    expect(released).toBe(true);
  });

  it('a resumed run merges a child no run merged only once its session is back where it had got to', async () => {
    const journal = new MemoryJournal();
    // before the crash: 0.1 spawned after no own write, 0.2 after one; neither merged
    await journal.record('u', 'spawn:0.1', 0);
    await journal.record('u', 'spawn:0.2', 1);
    const order = await orderOn(journal);
    const merged: string[] = [];
    order.spawned('0', '0.1', 0);
    // 0.1's outcome is recorded: it is there at once
    const first = order.turn('0', '0.1').then(() => merged.push('0.1'));
    await settle();
    order.wrote('0', 1);
    await settle();
    expect(merged, 'not before the spawn of 0.2 again').toEqual([]);
    order.spawned('0', '0.2', 1);
    await first;
    expect(merged).toEqual(['0.1']);
    expect(journal.rows('u')['order:0:0']).toBe('0.1');
  });
});
