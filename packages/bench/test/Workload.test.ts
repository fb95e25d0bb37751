import { describe, expect, it } from 'vitest';
import { expectedSurvivors, flatWorkload, treeWorkload, verify } from '../src/index.ts';
import type { Insert, Workload } from '../src/index.ts';
import { crashesAt, insertOf, sessionCount } from '../src/peers/Workload.ts';

/** Every insert of every child of `w`, crashed or not: what a system without isolation keeps. */
function everyInsert(w: Workload, path: readonly number[] = []): Insert[] {
  const own = path.length > 0 ? Array.from({ length: w.k }, (_, j) => insertOf(path, j)) : [];
  const children = w.fanOut[path.length] ?? 0;
  return [...own, ...Array.from({ length: children }, (_, i) => everyInsert(w, [...path, i])).flat()];
}

/** The inserts a correct system keeps: none under a child that threw. */
function survivors(w: Workload, path: readonly number[] = []): Insert[] {
  if (crashesAt(path)) return [];
  const own = path.length > 0 ? Array.from({ length: w.k }, (_, j) => insertOf(path, j)) : [];
  const children = w.fanOut[path.length] ?? 0;
  return [...own, ...Array.from({ length: children }, (_, i) => survivors(w, [...path, i])).flat()];
}

describe('Workload - W(n, k) and its check', () => {
  it('the depth-3 tree has 1,110 sessions, of which 819 survive with 8,190 inserts', () => {
    const tree = treeWorkload('tree', 10, 3);
    expect(sessionCount(tree)).toBe(1_110);
    expect(tree.label).toBe('depth-3 tree (1,110)');
    expect(expectedSurvivors(tree)).toBe(8_190);
    expect(survivors(tree)).toHaveLength(8_190);
  });

  it('one child in ten throws: 10,000 children keep 90,000 inserts', () => {
    expect(expectedSurvivors(flatWorkload('10k', 10_000))).toBe(90_000);
  });

  it('verify - a run that dropped exactly the crashed children passes', () => {
    const tree = treeWorkload('tree', 10, 2);
    expect(verify(tree, survivors(tree))).toEqual({ expected: 900, survived: 900, crashedKept: 0, ok: true });
  });

  it("verify - a run that kept a crashed child's writes, or its children's, fails and counts them", () => {
    const tree = treeWorkload('tree', 10, 2);
    // 110 children × 10 inserts; a crashed first-level child with its 10 children (110 inserts), 9 crashed second-level children under the others (90)
    expect(verify(tree, everyInsert(tree))).toEqual({ expected: 900, survived: 1_100, crashedKept: 200, ok: false });
  });

  it('verify - a run that lost writes fails though it kept nothing it should not', () => {
    const w = flatWorkload('20', 20);
    expect(verify(w, survivors(w).slice(1))).toMatchObject({ survived: 179, crashedKept: 0, ok: false });
  });

  it('verify - an insert no child made counts against the run', () => {
    const w = flatWorkload('20', 20);
    expect(verify(w, [...survivors(w).slice(1), { issue: 'something else' }])).toMatchObject({ crashedKept: 1, ok: false });
  });
});
