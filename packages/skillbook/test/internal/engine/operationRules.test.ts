import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/index.ts';
import { parseOperation } from '../../../src/parseOperation.ts';
import type { ParsedOperation } from '../../../src/parseOperation.ts';
import type { AppliedFields } from '../../../src/internal/engine/appliedOp.ts';
import { appliedFor } from '../../../src/internal/engine/appliedOp.ts';
import type { SkillEntry } from '../../../src/internal/BookState.ts';
import { makeSkill } from '../../../src/internal/makeSkill.ts';
import { addSkill, removeSkill, tagSkill, updateSkill } from '../../../src/internal/engine/operationRules.ts';
import type { Outcome, RuleScope } from '../../../src/internal/engine/operationRules.ts';
import type { Effect } from '../../../src/internal/engine/replayCache.ts';

const AT = '2026-01-01T00:00:00.000000+00:00';

/** A scope that records what the rules keep, over no book. */
class Recorder implements RuleScope {
  readonly added: Skill[] = [];
  readonly effects: Effect[] = [];
  timeOf(): string {
    return AT;
  }
  idFor(op: ParsedOperation, section: string): string {
    return op.skillId ?? `${section}-00007`;
  }
  namedBefore(id: string): boolean {
    return id === 'taken';
  }
  duplicate(op: ParsedOperation, id: string) {
    return { error: { code: 'duplicate_skill_id' as const, message: `skill id already exists: ${id}`, opIndex: op.opIndex } };
  }
  putAdded(_id: string, skill: Skill): void {
    this.added.push(skill);
  }
  putEffect(_entry: SkillEntry, effect: Effect): void {
    this.effects.push(effect);
  }
  applied(op: ParsedOperation, fields: AppliedFields) {
    return appliedFor(op, fields);
  }
}

function parsed(raw: unknown): ParsedOperation {
  const r = parseOperation(raw);
  if (!r.ok) throw new Error(r.error.message);
  return r.op;
}

const entry: SkillEntry = {
  skill: makeSkill({
    id: 'context-00001',
    section: 'context',
    keywords: ['k'],
    issue: 'i',
    insight: 'x',
    occurrences: [],
    created: AT,
    at: AT,
  }),
  contentRev: 1,
  activeRev: 1,
  countersRev: 1,
};

const applied = (o: Outcome) => ('applied' in o ? o.applied : o);

describe('operationRules', () => {
  it('addSkill - a legacy section folds into context with its name as the first keyword and the issue as the insight', () => {
    const scope = new Recorder();
    expect(applied(addSkill(scope, parsed({ type: 'ADD', section: 'Old Notes', issue: 'units' })))).toMatchObject({
      section: 'context',
      skill_id: 'context-00007',
      insight: 'units',
    });
    expect(scope.added[0]?.keywords).toEqual(['old_notes']);
  });

  it('addSkill - an id named before is refused; a context skill without an insight throws the Python error the run reports', () => {
    expect(addSkill(new Recorder(), parsed({ type: 'ADD', section: 'harness', issue: 'a', skill_id: 'taken' }))).toMatchObject({
      error: { code: 'duplicate_skill_id' },
    });
    expect(() => addSkill(new Recorder(), parsed({ type: 'ADD', section: 'context', issue: 'a' }))).toThrow(/insight/);
  });

  it('updateSkill - changes only what is given and says whether content changed', () => {
    const scope = new Recorder();
    updateSkill(scope, parsed({ type: 'UPDATE', skill_id: 'context-00001', keywords: ['k'] }), entry);
    updateSkill(scope, parsed({ type: 'UPDATE', skill_id: 'context-00001', insight: 'y' }), entry);
    expect(scope.effects.map((e) => [e.content, e.after.insight, e.after.issue])).toEqual([
      [false, 'x', 'i'],
      [true, 'y', 'i'],
    ]);
  });

  it('tagSkill and removeSkill - a TAG counts by the sign of delta; a REMOVE is soft; removing a removed skill is a no-change skip unless it brings a source', () => {
    const scope = new Recorder();
    tagSkill(scope, parsed({ type: 'TAG', skill_id: 'context-00001', metadata: { delta: -5 } }), entry);
    removeSkill(scope, parsed({ type: 'REMOVE', skill_id: 'context-00001' }), entry);
    const removed = { ...entry, skill: scope.effects[1]?.after ?? entry.skill };
    expect(removeSkill(scope, parsed({ type: 'REMOVE', skill_id: 'context-00001' }), removed)).toEqual({
      skipped: 'skill context-00001 is already removed',
      code: 'no_change',
    });
    removeSkill(scope, parsed({ type: 'REMOVE', skill_id: 'context-00001', insight_source: { trace_uid: 'ace:1' } }), removed);
    expect(scope.effects.map((e) => [e.after.harmful_count, e.after.active, e.active, e.counters])).toEqual([
      [1, true, false, true],
      [0, false, true, false],
      [0, false, false, true],
    ]);
  });
});
