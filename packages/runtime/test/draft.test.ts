import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { Draft } from '../src/Draft.ts';
import { formatSessionId } from '../src/SessionId.ts';

const add = (issue: string) => ({ operations: [{ type: 'ADD', section: 'harness', issue }] });

describe('Draft.toCommit', () => {
  it('hands out entries that later writes leave alone', () => {
    const draft = new Draft(Skillbook.empty(), { sessionId: formatSessionId('t', 1), path: [formatSessionId('t', 1)] });
    expect(draft.write(add('first'), {}).ok).toBe(true);
    const commit = draft.toCommit('out');
    expect(commit.entries.flatMap((e) => e.ops.map((op) => op.issue))).toEqual(['first']);
    expect(draft.write(add('second'), {}).ok).toBe(true);
    expect(commit.entries.flatMap((e) => e.ops.map((op) => op.issue))).toEqual(['first']);
    expect(draft.toCommit('out').entries.flatMap((e) => e.ops.map((op) => op.issue))).toEqual(['first', 'second']);
    expect(draft.opCount).toBe(2);
  });
});
