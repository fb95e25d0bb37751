import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import type { AppliedOp } from '../src/index.ts';
import { addAt, fixedClock, ok, steppingClock } from './utils/fixture.ts';

const AT = '2026-01-01T00:00:00.000000+00:00';
const clock = fixedClock(Date.UTC(2026, 0, 1));

const add = (book: Skillbook, ...operations: object[]): Skillbook => addAt(clock, book, ...operations);

describe('Skillbook - the empty book', () => {
  it('an empty book is revision 0, next_id 0, and writes ACE’s empty document', () => {
    const b = Skillbook.empty();
    expect([b.revision, b.nextId, b.size]).toEqual([0, 0, 0]);
    expect(b.toJSON()).toBe(
      '{\n  "schema_version": "2",\n  "skills": {},\n  "sections": {},\n  "next_id": 0,\n  "similarity_decisions": {}\n}',
    );
    expect(b.asPrompt()).toBe('');
    expect(b.stats()).toEqual({ sections: 0, skills: 0, active_skills: 0, by_section: { context: 0, harness: 0 } });
    expect(Skillbook.empty({ revision: 7 }).revision).toBe(7);
  });
});

describe('Skillbook - ADD', () => {
  it('ADD allocates <section>-<5 digits> from one counter for all sections, incremented before use', () => {
    const r = ok(
      Skillbook.empty().applyBatch(
        {
          operations: [
            { type: 'ADD', section: 'context', issue: 'a', insight: 'x' },
            { type: 'ADD', section: 'harness', issue: 'b' },
            { type: 'add', section: 'Context', issue: 'c', insight: 'x' },
          ],
        },
        { clock },
      ),
    );
    expect(r.applied.map((op) => op.skill_id)).toEqual(['context-00001', 'harness-00002', 'context-00003']);
    expect(r.book.nextId).toBe(3);
  });

  it('a legacy section becomes context with its name first among the keywords, and the issue as insight', () => {
    const b = add(Skillbook.empty(), {
      type: 'ADD',
      section: ' Strategy Notes ',
      issue: 'Check units',
      keywords: ['Units', 'strategy notes'],
    });
    expect(b.get('context-00001')).toMatchObject({ section: 'context', keywords: ['strategy_notes', 'units'], insight: 'Check units' });
  });

  it('no keywords means [section]; a context skill needs an insight, a harness skill does not', () => {
    const b = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'Retry' });
    expect(b.get('harness-00001')).toMatchObject({ keywords: ['harness'] });
    expect(b.get('harness-00001')?.insight).toBeUndefined();
    expect(b.toJSON()).toContain('"insight": null');
    const r = b.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'No insight' }] });
    expect(r.ok ? null : r.error).toEqual({ code: 'invalid_operation', message: 'context skills require a non-empty insight', opIndex: 0 });
  });

  it('section and issue are required', () => {
    for (const [op, message] of [
      [{ type: 'ADD', section: ' ', issue: 'x' }, 'section is required and must be non-empty'],
      [{ type: 'ADD', section: 'harness', issue: '  ' }, 'issue is required and must be non-empty'],
    ] as const) {
      const r = Skillbook.empty().applyBatch({ operations: [op] });
      expect(r.ok ? null : r.error.message).toBe(message);
    }
  });

  it('an ADD with an explicit skill_id that exists, in the book or earlier in the batch, is refused (ACE overwrites)', () => {
    const b = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a', skill_id: 'mine-1' });
    const inBook = b.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'b', skill_id: 'mine-1' }] });
    expect(inBook.ok ? null : inBook.error).toEqual({ code: 'duplicate_skill_id', message: 'skill id already exists: mine-1', opIndex: 0 });
    const inBatch = Skillbook.empty().applyBatch({
      operations: [
        { type: 'ADD', section: 'harness', issue: 'a', skill_id: 'x' },
        { type: 'ADD', section: 'harness', issue: 'b', skill_id: 'x' },
      ],
    });
    expect(inBatch.ok ? null : inBatch.error.opIndex).toBe(1);
  });

  it('an empty explicit skill_id allocates, as in ACE', () => {
    const b = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a', skill_id: '' });
    expect([...b.skills()].map((s) => s.id)).toEqual(['harness-00001']);
  });

  it('next_id is raised past the numeric suffix of an explicit id, so it is never allocated again', () => {
    const b = add(
      Skillbook.empty(),
      { type: 'ADD', section: 'harness', issue: 'a', skill_id: 'harness-00041' },
      { type: 'ADD', section: 'harness', issue: 'b' },
      { type: 'ADD', section: 'harness', issue: 'c', skill_id: 'custom-beta' },
      { type: 'ADD', section: 'harness', issue: 'd', skill_id: '99' },
    );
    expect([...b.skills()].map((s) => s.id)).toEqual(['harness-00041', 'harness-00042', 'custom-beta', '99']);
    expect(b.nextId).toBe(42);
  });

  it('created_at and updated_at come from the injected clock, in ACE’s format', () => {
    const b = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a' });
    expect(b.get('harness-00001')).toMatchObject({ created_at: AT, updated_at: AT });
  });
});

describe('Skillbook - UPDATE, TAG, REMOVE', () => {
  const start = add(
    Skillbook.empty(),
    { type: 'ADD', section: 'context', issue: 'Dates', insight: 'Use ISO 8601', keywords: ['dates'] },
    { type: 'ADD', section: 'harness', issue: 'Retries' },
  );

  it('UPDATE changes only what is given; blank text and empty keywords mean unchanged', () => {
    const b = add(start, { type: 'UPDATE', skill_id: 'context-00001', issue: '  ', insight: 'Use RFC 3339', keywords: [] });
    expect(b.get('context-00001')).toMatchObject({ issue: 'Dates', insight: 'Use RFC 3339', keywords: ['dates'] });
    const c = add(b, { type: 'UPDATE', skill_id: 'context-00001', keywords: ['Time Zones'] });
    expect(c.get('context-00001')?.keywords).toEqual(['time_zones']);
  });

  it('UPDATE works on an inactive skill and does not reactivate it', () => {
    const b = add(start, { type: 'REMOVE', skill_id: 'harness-00002' }, { type: 'UPDATE', skill_id: 'harness-00002', insight: 'Back off' });
    expect(b.get('harness-00002')).toMatchObject({ active: false, insight: 'Back off' });
    expect(b.asPrompt()).not.toContain('harness-00002');
  });

  it('UPDATE is atomic: an UPDATE that fails leaves no half-update behind (ACE keeps the new issue)', () => {
    const loaded = Skillbook.fromJSON(
      '{"schema_version": "2", "skills": {"c-1": {"id": "c-1", "section": "context", "issue": "Old", "created_at": "t", "updated_at": "t"}}}',
    );
    const r = loaded.applyBatch({ operations: [{ type: 'UPDATE', skill_id: 'c-1', issue: 'New' }] });
    expect(r.ok ? null : r.error.message).toBe('context skills require a non-empty insight');
    expect(r.book.get('c-1')?.issue).toBe('Old');
  });

  it('TAG counts by the sign of delta; a missing delta is neutral; it counts on inactive skills too', () => {
    const b = add(
      start,
      { type: 'REMOVE', skill_id: 'harness-00002' },
      { type: 'TAG', skill_id: 'harness-00002', metadata: { delta: 5 } },
      { type: 'TAG', skill_id: 'harness-00002', metadata: { delta: '-2' } },
      { type: 'TAG', skill_id: 'harness-00002' },
    );
    expect(b.get('harness-00002')).toMatchObject({ helpful_count: 1, harmful_count: 1, neutral_count: 1, active: false });
  });

  it('REMOVE is soft: the skill stays in the document, leaves the prompt and the active counts', () => {
    const b = add(start, { type: 'REMOVE', skill_id: 'context-00001', reason: 'outdated' });
    expect(b.has('context-00001')).toBe(true);
    expect(b.get('context-00001')?.active).toBe(false);
    expect(b.stats()).toEqual({ sections: 1, skills: 2, active_skills: 1, by_section: { context: 0, harness: 1 } });
    expect(b.asPrompt()).toBe('## harness\n- [harness-00002]\n  Keywords: harness\n  Issue: Retries');
  });

  it('UPDATE / TAG / REMOVE of an unknown id, or with no id, are skipped and reported, as in ACE', () => {
    const r = ok(
      start.applyBatch({
        operations: [{ type: 'UPDATE', skill_id: 'nope', insight: 'x' }, { type: 'TAG' }, { type: 'REMOVE', skill_id: 'context-00001' }],
      }),
    );
    expect(r.skipped).toEqual([
      { opIndex: 0, type: 'UPDATE', skillId: 'nope', code: 'no_skill', reason: 'no skill with id nope' },
      { opIndex: 1, type: 'TAG', skillId: null, code: 'no_skill', reason: 'the operation has no skill_id' },
    ]);
    expect(r.applied.map((op) => op.type)).toEqual(['REMOVE']);
  });

  it('a REMOVE of a skill removed already changes nothing and is skipped; one that brings a new source is applied', () => {
    const removed = ok(start.applyBatch({ operations: [{ type: 'REMOVE', skill_id: 'context-00001' }] })).book;
    const again = ok(removed.applyBatch({ operations: [{ type: 'REMOVE', skill_id: 'context-00001' }] }));
    expect(again.book).toBe(removed);
    expect(again.skipped).toEqual([
      { opIndex: 0, type: 'REMOVE', skillId: 'context-00001', code: 'no_change', reason: 'skill context-00001 is already removed' },
    ]);
    const sourced = ok(
      removed.applyBatch({ operations: [{ type: 'REMOVE', skill_id: 'context-00001', insight_source: { trace_uid: 'ace:1' } }] }),
    );
    expect(sourced.applied.map((op) => op.type)).toEqual(['REMOVE']);
    expect(sourced.book.get('context-00001')?.occurrences).toHaveLength(1);
    // a replayed REMOVE whose skill was removed meanwhile is skipped the same way
    const child = ok(start.applyBatch({ operations: [{ type: 'REMOVE', skill_id: 'context-00001' }] }));
    const replayed = removed.replay(child.applied);
    expect(replayed.ok && replayed.skipped.map((k) => k.code)).toEqual(['no_change']);
  });

  it('a batch of only skipped ops returns the same book at the same revision', () => {
    const r = ok(start.applyBatch({ operations: [{ type: 'TAG', skill_id: 'nope' }] }));
    expect(r.book).toBe(start);
  });

  it('sources are de-duplicated by their canonical JSON', () => {
    const source = { source_system: 'trace', trace_id: 'q1' };
    const b = add(start, { type: 'TAG', skill_id: 'context-00001', insight_source: [source, { ...source, display_name: 'q1' }] });
    const c = add(b, { type: 'REMOVE', skill_id: 'context-00001', insight_source: source });
    expect(c.get('context-00001')?.occurrences).toEqual([
      { trace_uid: 'trace:q1', source_system: 'trace', trace_id: 'q1', display_name: 'q1' },
    ]);
  });
});

describe('Skillbook - all or nothing', () => {
  it('a batch whose last op fails applies nothing (ACE applies the ops before it)', () => {
    const b = Skillbook.empty();
    const r = b.applyBatch({
      operations: [{ type: 'ADD', section: 'harness', issue: 'kept by ACE' }, { type: 'BOGUS' }],
    });
    expect(r.ok).toBe(false);
    expect(r.book).toBe(b);
    expect(b.size).toBe(0);
    expect(r.ok ? null : r.error).toEqual({ code: 'unknown_operation_type', message: 'Invalid operation type: BOGUS', opIndex: 1 });
  });
});

describe('Skillbook - applied ops', () => {
  it('applied ops are exact ACE operations: final ids, normalised section and keywords, canonical sources, at', () => {
    const r = ok(
      Skillbook.empty().applyBatch(
        {
          operations: [
            {
              type: 'add',
              section: 'Old Notes',
              issue: ' Dates ',
              keywords: ['ISO Format'],
              insight_source: { trace_uid: 'web:7' },
              reason: ' r ',
            },
            { type: 'TAG', skill_id: 'context-00001', metadata: { delta: '-9', helpful: 1 } },
          ],
        },
        { clock },
      ),
    );
    expect(r.applied).toEqual<AppliedOp[]>([
      {
        type: 'ADD',
        section: 'context',
        issue: 'Dates',
        keywords: ['old_notes', 'iso_format'],
        insight: 'Dates',
        skill_id: 'context-00001',
        reason: 'r',
        insight_source: [{ trace_uid: 'web:7', source_system: 'web', trace_id: '7', display_name: '7' }],
        at: AT,
      },
      { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: -1, helpful: 1 }, at: AT },
    ]);
    expect(Object.isFrozen(r.applied[0])).toBe(true);
  });

  it('replay applies ops exactly: explicit ids and the at timestamps, all or nothing', () => {
    const start = Skillbook.empty();
    const r = ok(start.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] }, { clock: steppingClock() }));
    const again = ok(start.replay(r.applied));
    expect(again.book.toJSON()).toBe(r.book.toJSON());
    const dup = r.book.replay(r.applied);
    expect(dup.ok ? null : dup.error.code).toBe('duplicate_skill_id');
    const noId = start.replay([{ type: 'ADD', section: 'harness', skill_id: '', issue: 'x', at: AT }]);
    expect(noId.ok ? null : noId.error.code).toBe('invalid_operation');
    const bad = start.replay([{ type: 'ADD', section: 'harness', skill_id: 'a-1', issue: 'x', at: 'yesterday' }]);
    expect(bad.ok ? null : [bad.error.code, bad.error.opIndex]).toEqual(['invalid_operation', 0]);
    expect(start.replay('nope' as unknown as AppliedOp[]).ok).toBe(false);
  });
});
