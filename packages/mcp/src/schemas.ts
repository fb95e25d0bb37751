/**
 * The zod schemas of the tools' arguments and results: what `tools/list` shows a client, and
 * what the server checks every call against, under the runtime's limits.
 */
import type { Limits } from '@cohort/runtime';
import { toolSchemas } from '@cohort/runtime';
import { z } from 'zod';

/** A task's id, as `task.begin` gave it. */
export function taskId(limits: Limits) {
  return z
    .string()
    .min(1)
    .max(limits.maxIdLength, `at most ${limits.maxIdLength} characters (limits.maxIdLength)`)
    .describe('the task, as task.begin returned it');
}

/** The argument schemas of every tool under `limits`. */
export function inputSchemas(limits: Limits) {
  const skill = toolSchemas(limits);
  const task = taskId(limits);
  const inTask = task.optional().describe('write inside this task (see task.begin); absent: a one-shot write, committed at once');
  const text = z.string().max(limits.maxTextLength, `at most ${limits.maxTextLength} characters (limits.maxTextLength)`);
  return {
    get: z.strictObject({ task: task.optional().describe("read this task's draft (its own writes included) instead of the book") }),
    read: skill.read_skill.extend({ task: task.optional().describe("read from this task's draft instead of the book") }),
    search: z.strictObject({
      text: text.optional().describe('what the task is about, in words: matched against keywords, issue and insight'),
      keywords: z
        .array(z.string().max(limits.maxKeywordLength, `at most ${limits.maxKeywordLength} characters (limits.maxKeywordLength)`))
        .max(limits.maxKeywords, `at most ${limits.maxKeywords} keywords (limits.maxKeywords)`)
        .optional()
        .describe('keywords to match exactly'),
      section: z.enum(['context', 'harness']).optional().describe('only skills of this section'),
      limit: z.number().int().min(1).max(100).optional().describe('at most this many results (default 10)'),
    }),
    begin: z.strictObject({
      name: z.string().trim().min(1).max(128).optional().describe('a short name for the task, shown in the audit (cohort book log)'),
    }),
    end: z.strictObject({ task }),
    list: z.strictObject({}),
    add_skill: skill.add_skill.extend({ task: inTask }),
    update_skill: skill.update_skill.extend({ task: inTask }),
    tag_skill: skill.tag_skill.extend({ task: inTask }),
    remove_skill: skill.remove_skill.extend({ task: inTask }),
  };
}

const ConflictOut = z.object({
  opIndex: z.number(),
  type: z.string(),
  skillId: z.string(),
  reason: z.string(),
  revision: z.number(),
});

/** What a commit or an abort says: what landed, the final ids, the conflicts. */
export const TaskResultOut = z.object({
  task: z.string(),
  name: z.string(),
  status: z.enum(['committed', 'conflict', 'aborted', 'failed']),
  revision: z.number().optional().describe("the book's revision after the commit"),
  added: z.array(z.string()).describe('ids of the skills added: final in every copy of the book'),
  landed: z.array(z.string()).describe('each op that landed, "TYPE skill-id"'),
  conflicts: z.array(ConflictOut).describe('why nothing landed: each conflicting op'),
  discarded: z.number().describe('ops dropped with the draft'),
  message: z.string().optional(),
});

const SkillOut = z.looseObject({ id: z.string(), section: z.string(), issue: z.string(), active: z.boolean() });

/** The result schemas, one per tool. */
export const outputSchemas = {
  get: z.object({
    prompt: z.string().describe("the active skills as ACE's prompt text"),
    revision: z.number(),
    stats: z.object({ sections: z.number(), skills: z.number(), active_skills: z.number(), by_section: z.record(z.string(), z.number()) }),
    task: z.string().optional(),
  }),
  read: z.object({ skill: SkillOut, task: z.string().optional() }),
  search: z.object({ revision: z.number(), hits: z.array(z.object({ score: z.number(), skill: SkillOut })) }),
  begin: z.object({ task: z.string(), name: z.string(), baseRevision: z.number() }),
  end: TaskResultOut,
  list: z.object({ tasks: z.array(z.object({ task: z.string(), name: z.string(), ops: z.number() })) }),
  write: z.object({
    ok: z.literal(true),
    skill_id: z.string(),
    task: z.string().optional().describe('the task the write went to (nothing visible to others before its commit)'),
    helpful_count: z.number().optional(),
    harmful_count: z.number().optional(),
    neutral_count: z.number().optional(),
    commit: TaskResultOut.optional().describe('a one-shot write: its commit'),
  }),
};
