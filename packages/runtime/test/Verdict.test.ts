import { describe, expect, it } from 'vitest';
import type { AppliedOp } from '@cohort/skillbook';
import { answerOf, refusalVerdict } from '../src/internal/Verdict.ts';

const op = (type: AppliedOp['type'], id: string): AppliedOp => ({ type, section: 'harness', skill_id: id, at: '2026-01-01T00:00:00' });

describe('Verdict - what a session is told', () => {
  it('answerOf - a merge answers MERGED with the ids its ADDs landed under', () => {
    const ops = [op('ADD', 'harness-00001'), op('TAG', 'harness-00000'), op('ADD', 'harness-00002')];
    expect(answerOf({ ok: true, revision: 4, merge: { ok: true, entries: [], ops, dropped: [] } })).toEqual({
      type: 'MERGED',
      revision: 4,
      ops: 3,
      added: ['harness-00001', 'harness-00002'],
      dropped: [],
    });
  });

  it('refusalVerdict - a conflict keeps its conflicts; an invalid commit is an error too', () => {
    const conflicts = [{ opIndex: 0, type: 'UPDATE' as const, skillId: 'context-00001', reason: 'removed' as const, revision: 2 }];
    expect(answerOf(refusalVerdict({ ok: false, kind: 'conflict', conflicts, message: 'conflicts' }))).toEqual({
      type: 'REJECTED',
      failure: { kind: 'conflict', category: 'error', message: 'conflicts', conflicts },
    });
    expect(answerOf(refusalVerdict({ ok: false, kind: 'invalid_commit', message: 'cannot apply' }))).toMatchObject({
      type: 'REJECTED',
      failure: { kind: 'invalid_commit', category: 'error' },
    });
  });
});
