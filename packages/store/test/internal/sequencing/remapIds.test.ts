import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import type { AppliedOp } from '@cohort/skillbook';
import { IdLeases } from '../../../src/internal/sequencing/IdLeases.ts';
import { remapIds } from '../../../src/internal/sequencing/remapIds.ts';

const AT = '2026-01-01T00:00:00.000000+00:00';
const add = (id: string): AppliedOp => ({ type: 'ADD', section: 'context', skill_id: id, issue: id, insight: 'x', at: AT });

function book(...ids: string[]): Skillbook {
  const r = Skillbook.empty().replay(ids.map(add));
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

describe('remapIds', () => {
  it('remapIds - explicit and leased ids are final: kept when free, id_exists when taken', () => {
    const leases = new IdLeases();
    leases.grant(10, 0);
    const taken = book('context-00003', 'constructor');
    const ops = [add('context-00003'), add('constructor'), add('context-00004')];
    const leased = remapIds(taken, ops, { explicit: new Set(['constructor']), allocation: 'leased' }, leases);
    expect(leased.conflicts.map((c) => [c.opIndex, c.skillId, c.reason])).toEqual([
      [0, 'context-00003', 'id_exists'],
      [1, 'constructor', 'id_exists'],
    ]);
    expect(leased.idMap.size).toBe(0);
  });

  it('remapIds - an unleased id that is taken, or falls in a lease, gets a fresh one past every lease; later ops follow it', () => {
    const leases = new IdLeases();
    leases.grant(10, 0);
    const ops: AppliedOp[] = [
      add('context-00003'),
      { type: 'TAG', section: 'context', skill_id: 'context-00003', metadata: { delta: 1 }, at: AT },
      add('context-00020'),
    ];
    const r = remapIds(book(), ops, { explicit: new Set(), allocation: 'unleased' }, leases);
    expect([...r.idMap]).toEqual([['context-00003', 'context-00011']]);
    expect(r.ops.map((op) => op.skill_id)).toEqual(['context-00011', 'context-00011', 'context-00020']);
  });

  it('remapIds - any string is an id: a TAG of `constructor` after an unleased remap is not mistaken for a mapped id', () => {
    const r = remapIds(
      book('constructor'),
      [{ type: 'TAG', section: 'context', skill_id: 'constructor', metadata: { delta: 1 }, at: AT }],
      { explicit: new Set(), allocation: 'unleased' },
      new IdLeases(),
    );
    expect(r.ops[0]?.skill_id).toBe('constructor');
  });
});
