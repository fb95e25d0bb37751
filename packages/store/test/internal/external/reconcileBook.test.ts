import { describe, expect, it } from 'vitest';
import { Skillbook, formatAceTimestamp } from '@cohort/skillbook';
import { reconcileBook } from '../../../src/internal/external/reconcileBook.ts';
import { add, day, edit, noIds, remove, rows, tag, update } from '../../utils/externalBooks.ts';

// when the reconciliations happen (after every edit of these tests)
const AT = formatAceTimestamp(day(20));

// the version both sides started from: two skills
const base = edit(Skillbook.empty(), day(1), add('context-00001', 'one'), add('context-00002', 'two'));

describe('reconcileBook', () => {
  it("reconcileBook - Cohort's newer skills, which the other writer never saw, stay; its own additions, changes and removals are taken", () => {
    const live = edit(base, day(2), add('context-00003', 'cohort new'), update('context-00001', 'cohort changed one'));
    const disk = edit(
      base.reserveIds(10),
      day(3),
      add('context-00011', 'ace new'),
      update('context-00002', 'ace changed two'),
      remove('context-00002'),
    );
    const reconciled = reconcileBook(base, disk, live, noIds, AT);
    expect(reconciled.conflicts).toEqual([]);
    expect(rows(reconciled.book)).toEqual([
      ['context-00001', 'one', 'cohort changed one', true, 0],
      ['context-00002', 'two', 'ace changed two', false, 0],
      ['context-00003', 'cohort new', 'insight of cohort new', true, 0],
      ['context-00011', 'ace new', 'insight of ace new', true, 0],
    ]);
    expect(reconciled.book.revision).toBe(live.revision + 1);
    expect(reconciled.changes.counts).toEqual({ added: 1, changed: 1, removed: 0, dropped: 0 });
  });

  it('reconcileBook - counter increments of both sides add up, once', () => {
    const live = edit(base, day(2), tag('context-00001'), tag('context-00001'));
    const disk = edit(base, day(3), tag('context-00001'), tag('context-00001', -1));
    const reconciled = reconcileBook(base, disk, live, noIds, AT);
    const one = reconciled.book.get('context-00001');
    expect([one?.helpful_count, one?.harmful_count]).toEqual([3, 1]);
    // a reconciled version is changed at the reconciliation: newer than both sides'
    expect(one?.updated_at).toBe(AT);
    // the same document reconciled again counts nothing twice
    const again = reconcileBook(disk, disk, reconciled.book, noIds, AT);
    expect(again.book).toBe(reconciled.book);
  });

  it('reconcileBook - UPDATE against UPDATE with other content, and REMOVE against UPDATE, are conflicts: the live side stays', () => {
    const live = edit(base, day(2), update('context-00001', 'ours'), update('context-00002', 'ours too'));
    const disk = edit(base, day(3), update('context-00001', 'theirs'), remove('context-00002'), tag('context-00002'));
    const reconciled = reconcileBook(base, disk, live, noIds, AT);
    expect(reconciled.conflicts.map((c) => [c.skillId, c.type, c.reason, c.theirs?.insight, c.ours?.insight])).toEqual([
      ['context-00001', 'UPDATE', 'content_changed', 'theirs', 'ours'],
      ['context-00002', 'REMOVE', 'content_changed', 'insight of two', 'ours too'],
    ]);
    expect(rows(reconciled.book).map((r) => r.slice(2))).toEqual([
      ['ours', true, 0],
      ['ours too', true, 1],
    ]);
    // the same change on both sides is no conflict
    const both = edit(base, day(3), update('context-00001', 'ours'));
    expect(reconcileBook(base, both, live, noIds, AT).conflicts).toEqual([]);
  });

  it('reconcileBook - UPDATE of a skill Cohort removed is a conflict; a skill missing from the document is deleted only when its base had it', () => {
    const three = edit(base, day(1), add('context-00003', 'three'));
    const live = edit(three, day(2), remove('context-00001'), add('context-00004', 'never seen'));
    const disk = edit(three, day(3), update('context-00001', 'theirs')).purge(['context-00002']);
    const reconciled = reconcileBook(three, disk, live, noIds, AT);
    expect(reconciled.conflicts.map((c) => [c.skillId, c.type, c.reason])).toEqual([['context-00001', 'UPDATE', 'removed']]);
    expect(rows(reconciled.book).map((r) => [r[0], r[3]])).toEqual([
      ['context-00001', false],
      ['context-00003', true],
      ['context-00004', true],
    ]);
    expect(reconciled.changes.counts.dropped).toBe(1);
    // deleting a skill Cohort changed since is a conflict; the skill stays
    const changed = edit(three, day(2), update('context-00002', 'cohort'));
    const deleted = reconcileBook(three, three.purge(['context-00002']), changed, noIds, AT);
    expect(deleted.conflicts.map((c) => [c.skillId, c.type, c.theirs])).toEqual([['context-00002', 'REMOVE', null]]);
    expect(deleted.book.get('context-00002')?.insight).toBe('cohort');
  });

  it('reconcileBook - a skill of the base newer than everything the document shows unchanged is not taken as deleted: the writer may never have seen it', () => {
    // the base found is newer than what the writer loaded: it has a skill the document lacks
    const newer = edit(base, day(5), add('context-00003', 'cohort, after the writer loaded'));
    const disk = edit(base, day(6), update('context-00001', 'theirs'));
    const reconciled = reconcileBook(newer, disk, newer, noIds, AT);
    expect(rows(reconciled.book).map((r) => [r[0], r[2]])).toEqual([
      ['context-00001', 'theirs'],
      ['context-00002', 'insight of two'],
      ['context-00003', 'insight of cohort, after the writer loaded'],
    ]);
    expect(reconciled.changes.counts.dropped).toBe(0);
  });

  it("reconcileBook - a newcomer under one of Cohort's ids is renumbered once; its next save lands on the same id", () => {
    const live = edit(base, day(2), add('context-00003', 'cohort three'));
    const first = edit(base, day(3), add('context-00003', 'ace three'));
    const reconciled = reconcileBook(base, first, live, noIds, AT);
    expect([...reconciled.idMap]).toEqual([['context-00003', 'context-00004']]);
    expect(reconciled.fresh.map((r) => [r.from, r.to])).toEqual([['context-00003', 'context-00004']]);
    expect(rows(reconciled.book).map((r) => [r[0], r[1]])).toEqual([
      ['context-00001', 'one'],
      ['context-00002', 'two'],
      ['context-00003', 'cohort three'],
      ['context-00004', 'ace three'],
    ]);
    // the long-running writer saves again from memory: same skill, same id, tagged once more
    const remembered = (id: string, at: string) => reconciled.fresh.find((r) => r.from === id && r.createdAt === at)?.to;
    const second = edit(first, day(4), tag('context-00003'));
    const again = reconcileBook(first, second, reconciled.book, { ...noIds, remembered }, AT);
    expect(again.fresh).toEqual([]);
    expect(rows(again.book).map((r) => [r[0], r[1], r[4]])).toEqual([
      ['context-00001', 'one', 0],
      ['context-00002', 'two', 0],
      ['context-00003', 'cohort three', 0],
      ['context-00004', 'ace three', 1],
    ]);
  });

  it('reconcileBook - without a known base nothing is deleted or undone: stale versions are ignored, newer different ones are conflicts, counters take the larger', () => {
    const live = edit(base, day(5), update('context-00001', 'cohort, later'), tag('context-00002'), add('context-00003', 'cohort three'));
    const disk = edit(
      base,
      day(3),
      update('context-00001', 'ace, earlier'),
      tag('context-00002'),
      tag('context-00002'),
      add('context-00009', 'ace nine'),
    ).purge(['context-00002']);
    const reconciled = reconcileBook(null, disk, live, noIds, AT);
    expect(reconciled.baseKnown).toBe(false);
    expect(reconciled.conflicts).toEqual([]);
    expect(rows(reconciled.book).map((r) => [r[0], r[2]])).toEqual([
      ['context-00001', 'cohort, later'],
      ['context-00002', 'insight of two'],
      ['context-00003', 'insight of cohort three'],
      ['context-00009', 'insight of ace nine'],
    ]);
    const newer = edit(base, day(9), update('context-00001', 'ace, later still'));
    expect(reconcileBook(null, newer, live, noIds, AT).conflicts.map((c) => [c.skillId, c.reason])).toEqual([['context-00001', 'no_base']]);
  });
});
