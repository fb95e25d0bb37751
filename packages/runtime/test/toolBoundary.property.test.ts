import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Draft, callSkillTool, createRuntime, createSkillTools, defaultLimits, operationLimits } from '@cohort/runtime';
import type { Limits, SessionBatchResult, SessionId, SessionOperationResult, SkillToolName } from '@cohort/runtime';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import type { OperationFields, Skill } from '@cohort/skillbook';

/** A batch of one op's result, as the write of that op reports it. */
function asOneOp(r: SessionBatchResult): SessionOperationResult {
  return r.ok ? { ok: true, applied: r.applied[0] ?? null, skipped: r.skipped[0] ?? null } : { ok: false, error: r.error as never };
}

/** Small limits, so that random input crosses them often. */
const limits = {
  maxTextLength: 40,
  maxKeywords: 3,
  maxKeywordLength: 8,
  maxSources: 2,
  maxIdLength: 16,
  maxCommitBytes: 6_000,
} satisfies Partial<Limits>;

/** Text around a limit: empty, short, at it, past it, with control and astral characters. */
const text = (limit: number) =>
  fc.oneof(
    fc.string({ maxLength: limit * 2 }),
    fc.string({ unit: 'grapheme', maxLength: limit }),
    fc.constantFrom(
      '',
      ' ',
      'x'.repeat(limit),
      'x'.repeat(limit + 1),
      '\u001b]0;t\u0007',
      'context',
      'harness',
      'context-00001',
      'harness-00002',
    ),
  );

/** Something a model might send where a value is due: the right shape, the wrong shape, or anything at all. */
const value = fc.oneof(
  { weight: 4, arbitrary: text(limits.maxTextLength) },
  { weight: 2, arbitrary: fc.array(text(limits.maxKeywordLength), { maxLength: limits.maxKeywords + 2 }) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.record({ source_system: text(8), trace_id: text(8), learning_text: text(limits.maxTextLength) }, { requiredKeys: [] }),
      { maxLength: 4 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, -1, true, 'helpful', 'harmful', 'neutral') },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

/** A field as a well-meaning model sends it: mostly the right type, sometimes past its limit. */
const near = {
  section: fc.oneof(fc.constantFrom('context', 'harness'), text(limits.maxIdLength)),
  issue: text(limits.maxTextLength),
  insight: text(limits.maxTextLength),
  reason: text(limits.maxTextLength),
  skill_id: fc.oneof(fc.constantFrom('context-00001', 'harness-00001', 'context-00002', 'harness-00002'), text(limits.maxIdLength)),
  keywords: fc.array(text(limits.maxKeywordLength), { maxLength: limits.maxKeywords + 2 }),
  insight_source: fc.oneof(
    fc.record(
      { source_system: text(8), trace_id: text(8), learning_text: text(limits.maxTextLength) },
      { requiredKeys: ['source_system', 'trace_id'] },
    ),
    fc.array(fc.record({ source_system: text(8), trace_id: text(8) }), { maxLength: limits.maxSources + 2 }),
  ),
  tag: fc.constantFrom('helpful', 'harmful', 'neutral'),
};
const FIELDS = ['section', 'issue', 'insight', 'keywords', 'skill_id', 'insight_source', 'reason', 'tag'] as const;
const anyFields = fc.record(Object.fromEntries(FIELDS.map((f) => [f, value])) as Record<(typeof FIELDS)[number], typeof value>, {
  requiredKeys: [],
});

/** Each tool's own fields, near-valid (the first ones required), or any fields, or anything at all. */
const OWN: Readonly<Record<SkillToolName, readonly (keyof typeof near)[]>> = {
  add_skill: ['section', 'issue', 'insight', 'keywords', 'skill_id', 'insight_source'],
  update_skill: ['skill_id', 'issue', 'insight', 'keywords', 'insight_source'],
  remove_skill: ['skill_id', 'reason'],
  tag_skill: ['skill_id', 'tag', 'insight_source'],
  read_skill: ['skill_id'],
};
const REQUIRED: Readonly<Record<SkillToolName, readonly (keyof typeof near)[]>> = {
  add_skill: ['section', 'issue', 'insight'],
  update_skill: ['skill_id'],
  remove_skill: ['skill_id'],
  tag_skill: ['skill_id', 'tag'],
  read_skill: ['skill_id'],
};
const call = fc
  .constantFrom<SkillToolName>('add_skill', 'add_skill', 'update_skill', 'remove_skill', 'tag_skill', 'read_skill')
  .chain((tool) => {
    const own = fc.record(Object.fromEntries(OWN[tool].map((f) => [f, near[f]])), { requiredKeys: [...REQUIRED[tool]] });
    return fc.tuple(
      fc.constant(tool),
      fc.oneof({ weight: 6, arbitrary: own }, { weight: 2, arbitrary: anyFields }, { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) }),
    );
  });

describe('the tool boundary (fuzzed)', () => {
  it('tool boundary - whatever a model sends, a tool resolves to a result or { error }, and nothing past a limit reaches the book', async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), async (calls) => {
        const rt = createRuntime({ limits });
        const results: unknown[] = [];
        const outcome = await rt.run(async (s) => {
          for (const [tool, raw] of calls)
            results.push(await callSkillTool(s.tools, tool, raw).catch((e: unknown) => ({ rejected: String(e) })));
        });
        expect(['committed', 'failed']).toContain(outcome.status);
        if (outcome.status === 'failed') expect(outcome.failure.kind).toBe('limit_exceeded');
        for (const r of results) {
          expect(
            typeof r === 'object' && r !== null && ('ok' in r || typeof (r as { error?: unknown }).error === 'string'),
            JSON.stringify(r),
          ).toBe(true);
        }
        written += rt.book.size;
        for (const skill of rt.book.skills()) {
          expect(skill.id.length).toBeLessThanOrEqual(limits.maxIdLength);
          expect(skill.issue.length).toBeLessThanOrEqual(limits.maxTextLength);
          expect((skill.insight ?? '').length).toBeLessThanOrEqual(limits.maxTextLength);
          expect(skill.keywords.length).toBeLessThanOrEqual(limits.maxKeywords + 1);
          // a legacy section is folded into context with its name as a keyword (ACE's rule): bounded as a section
          for (const k of skill.keywords) expect(k.length).toBeLessThanOrEqual(Math.max(limits.maxKeywordLength, limits.maxIdLength));
          for (const o of skill.occurrences) expect((o.learning_text ?? '').length).toBeLessThanOrEqual(limits.maxTextLength);
        }
        await rt.close();
      }),
      { numRuns: 150 },
    );
    // the generator reaches the book, not only refusals
    expect(written).toBeGreaterThan(20);
  });

  it('tool boundary - tools that write one op at a time answer and write exactly as tools that write it as a batch of one', async () => {
    const all: Limits = { ...defaultLimits, ...limits };
    /** A session's draft and tools, on a host that writes one op at a time (`single`) or as a batch of one; it ends after `calls` tool calls. */
    const session = (start: Skillbook, single: boolean, calls: number) => {
      const draft = new Draft(start, { sessionId: 's' as SessionId, path: ['s' as SessionId] });
      let t = Date.UTC(2027, 0, 1);
      const options = {
        clock: { now: () => (t += 1.5) },
        allocateId: createIdAllocator(start.nextId).allocate,
        limits: operationLimits(all),
      };
      let left = calls;
      const host = {
        limits: all,
        endedReason: () => (left-- > 0 ? null : 'session s has ended; the call was not applied'),
        book: { get: (id: string): Skill | undefined => draft.get(id) },
        writeOperation: (op: OperationFields): SessionOperationResult =>
          single ? draft.writeOperation(op, options) : asOneOp(draft.write({ operations: [op] }, options)),
      };
      return { draft, tools: createSkillTools(host) };
    };
    let written = 0;
    const seeded = Skillbook.empty().applyBatch({
      operations: [
        { type: 'ADD', section: 'context', issue: 'seed', insight: 'kept' },
        { type: 'ADD', section: 'harness', issue: 'seed' },
      ],
    }).book;
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), fc.nat({ max: 14 }), async (calls, ends) => {
        const [one, batch] = [session(seeded, true, ends), session(seeded, false, ends)];
        for (const [tool, raw] of calls) {
          const [a, b] = [await callSkillTool(one.tools, tool, raw), await callSkillTool(batch.tools, tool, raw)];
          expect(a).toEqual(b);
        }
        expect(one.draft.book.toJSON()).toBe(batch.draft.book.toJSON());
        expect([one.draft.revision, one.draft.opCount, one.draft.textLength]).toEqual([
          batch.draft.revision,
          batch.draft.opCount,
          batch.draft.textLength,
        ]);
        expect(one.draft.toCommit(null).entries).toEqual(batch.draft.toCommit(null).entries);
        written += one.draft.opCount;
      }),
      { numRuns: 200 },
    );
    // the calls reach the drafts, not only refusals
    expect(written).toBeGreaterThan(50);
  });
});
