import { z } from 'zod';
import { memoByLimits } from './internal/memoByLimits.ts';
import type { Limits } from './Limits.ts';
import { defaultLimits } from './Limits.ts';

/** A string of at most `max` characters, refused with a message naming the limit. */
function bounded(max: number, key: keyof Limits): z.ZodString {
  return z.string().max(max, `at most ${max} characters (limits.${key})`);
}

/** Required text: trimmed, not blank, bounded. */
function text(max: number, key: keyof Limits): z.ZodString {
  return z.string().trim().min(1).max(max, `at most ${max} characters (limits.${key})`);
}

/**
 * A union's refusal said by the branch the input was meant for (a list → the list's, anything
 * else → the one source's), so a source past a limit is named with its field and the limit
 * instead of zod's bare "Invalid input".
 */
function branchError(issue: {
  readonly input?: unknown;
  readonly errors?: readonly (readonly { readonly message: string; readonly path: readonly PropertyKey[] }[])[];
}): string | undefined {
  const first = issue.errors?.[Array.isArray(issue.input) ? 1 : 0]?.[0];
  if (!first) return undefined;
  return first.path.length > 0 ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
}

function insightSource(l: Limits) {
  const t = (): z.ZodString => bounded(l.maxTextLength, 'maxTextLength');
  const one = z.looseObject({
    source_system: t().describe('the system the trace came from, e.g. "my-agent"'),
    trace_id: t().describe("the trace's id within that system"),
    trace_uid: t().optional().describe('"<source_system>:<trace_id>" (built from the two when absent)'),
    display_name: t().optional().describe('a readable name for the trace (default: its trace_id)'),
    relation: t().optional().describe('how the trace bears on the skill, e.g. "evidence" or "counterexample"'),
    sample_question: t().optional().describe('the task or question the trace was working on'),
    epoch: z.union([z.number().int(), t()]).optional().describe('the learning epoch the trace belongs to (an integer)'),
    operation_type: t().optional().describe('the operation this source backs: ADD, UPDATE or TAG'),
    error_identification: t().optional().describe('what went wrong in the trace, if anything'),
    learning_text: t().optional().describe('the lesson as it was drawn from the trace'),
  });
  return z
    .union([one, z.array(one).max(l.maxSources, `at most ${l.maxSources} sources (limits.maxSources)`)], { error: branchError })
    .optional()
    .describe('the trace(s) this was learned from: one source or a list');
}

function keywords(l: Limits) {
  return z
    .array(bounded(l.maxKeywordLength, 'maxKeywordLength'))
    .max(l.maxKeywords, `at most ${l.maxKeywords} keywords (limits.maxKeywords)`)
    .optional()
    .describe('a few search keywords');
}

/** The zod schemas of the five Skillbook tools under `l`. */
function buildToolSchemas(l: Limits) {
  const id = (): z.ZodString => text(l.maxIdLength, 'maxIdLength');
  const prose = (): z.ZodString => bounded(l.maxTextLength, 'maxTextLength');
  return {
    add_skill: z.strictObject({
      section: id().describe('context or harness (other names are legacy sections, folded into context)'),
      issue: text(l.maxTextLength, 'maxTextLength').describe('the situation the skill is about'),
      insight: prose().optional().describe('what to do about it (required for context skills)'),
      keywords: keywords(l),
      skill_id: id().optional().describe('an explicit id; omit to have one allocated'),
      insight_source: insightSource(l),
    }),
    update_skill: z.strictObject({
      skill_id: id().describe('the skill to change'),
      issue: prose().optional().describe('the new issue (absent: unchanged)'),
      insight: prose().optional().describe('the new insight (absent: unchanged)'),
      keywords: keywords(l).describe('the new keywords (absent: unchanged)'),
      insight_source: insightSource(l),
    }),
    remove_skill: z.strictObject({
      skill_id: id().describe('the skill to retire'),
      reason: prose().optional().describe('why it is retired'),
    }),
    tag_skill: z.strictObject({
      skill_id: id().describe('the skill that was used'),
      tag: z.enum(['helpful', 'harmful', 'neutral']).describe('how the skill worked out'),
      insight_source: insightSource(l),
    }),
    read_skill: z.strictObject({ skill_id: id().describe('the skill to read') }),
  };
}

/** The zod schemas of the Skillbook tools, one per tool. */
export type ToolSchemas = ReturnType<typeof buildToolSchemas>;

const memoized = memoByLimits(
  (l) => `${l.maxTextLength} ${l.maxKeywords} ${l.maxKeywordLength} ${l.maxSources} ${l.maxIdLength}`,
  buildToolSchemas,
);

/**
 * The Skillbook tools' zod schemas under `limits` (built once per set of limit values, see
 * `memoByLimits`): every text field, keyword and source list bounded, so a refusal names the
 * field and the limit.
 *
 * @example
 * toolSchemas(defaultLimits).add_skill.safeParse({ section: 'harness', issue: 'x'.repeat(30_000) }).success; // false
 */
export function toolSchemas(limits: Limits): ToolSchemas {
  return memoized(limits);
}

const defaults = toolSchemas(defaultLimits);

/** `add_skill` arguments (under the default limits). */
export const AddSkillArgs = defaults.add_skill;
/** `update_skill` arguments; absent fields stay unchanged. */
export const UpdateSkillArgs = defaults.update_skill;
/** `remove_skill` arguments (a soft remove, as ACE). */
export const RemoveSkillArgs = defaults.remove_skill;
/** `tag_skill` arguments. */
export const TagSkillArgs = defaults.tag_skill;
/** `read_skill` arguments. */
export const ReadSkillArgs = defaults.read_skill;
