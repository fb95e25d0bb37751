import { z } from 'zod';
import type { Skill } from '@cohort/skillbook';
import type { SessionBatchResult } from './Session.ts';
import { parseToolArguments, toStrictJsonSchema } from './strictToolSchema.ts';

const text = z.string().trim().min(1);

/** One insight source (ACE `InsightSource`): where a skill's insight came from. */
const InsightSourceArg = z.looseObject({
  source_system: z.string().describe('the system the trace came from, e.g. "my-agent"'),
  trace_id: z.string().describe("the trace's id within that system"),
  trace_uid: z.string().optional().describe('"<source_system>:<trace_id>" (built from the two when absent)'),
  display_name: z.string().optional().describe('a readable name for the trace (default: its trace_id)'),
  relation: z.string().optional().describe('how the trace bears on the skill, e.g. "evidence" or "counterexample"'),
  sample_question: z.string().optional().describe('the task or question the trace was working on'),
  epoch: z.union([z.number().int(), z.string()]).optional().describe('the learning epoch the trace belongs to (an integer)'),
  operation_type: z.string().optional().describe('the operation this source backs: ADD, UPDATE or TAG'),
  error_identification: z.string().optional().describe('what went wrong in the trace, if anything'),
  learning_text: z.string().optional().describe('the lesson as it was drawn from the trace'),
});
const insightSource = z
  .union([InsightSourceArg, z.array(InsightSourceArg)])
  .optional()
  .describe('the trace(s) this was learned from: one source or a list');
const keywords = z.array(z.string()).optional().describe('a few search keywords');

/** `add_skill` arguments. */
export const AddSkillArgs = z.strictObject({
  section: text.describe('context or harness (other names are legacy sections, folded into context)'),
  issue: text.describe('the situation the skill is about'),
  insight: z.string().optional().describe('what to do about it (required for context skills)'),
  keywords,
  skill_id: text.optional().describe('an explicit id; omit to have one allocated'),
  insight_source: insightSource,
});
/** `update_skill` arguments; absent fields stay unchanged. */
export const UpdateSkillArgs = z.strictObject({
  skill_id: text.describe('the skill to change'),
  issue: z.string().optional().describe('the new issue (absent: unchanged)'),
  insight: z.string().optional().describe('the new insight (absent: unchanged)'),
  keywords: keywords.describe('the new keywords (absent: unchanged)'),
  insight_source: insightSource,
});
/** `remove_skill` arguments (a soft remove, as ACE). */
export const RemoveSkillArgs = z.strictObject({
  skill_id: text.describe('the skill to retire'),
  reason: z.string().optional().describe('why it is retired'),
});
/** `tag_skill` arguments. */
export const TagSkillArgs = z.strictObject({
  skill_id: text.describe('the skill that was used'),
  tag: z.enum(['helpful', 'harmful', 'neutral']).describe('how the skill worked out'),
  insight_source: insightSource,
});
/** `read_skill` arguments. */
export const ReadSkillArgs = z.strictObject({ skill_id: text.describe('the skill to read') });

/** What each tool accepts, as typed callers write it (`null` for an optional field also means absent). */
export interface SkillToolArgs {
  readonly add_skill: z.input<typeof AddSkillArgs>;
  readonly update_skill: z.input<typeof UpdateSkillArgs>;
  readonly remove_skill: z.input<typeof RemoveSkillArgs>;
  readonly tag_skill: z.input<typeof TagSkillArgs>;
  readonly read_skill: z.input<typeof ReadSkillArgs>;
}

/** A tool's name. */
export type SkillToolName = keyof SkillToolArgs;

/** A refused call: bad arguments, an unknown skill, or a session that has ended. */
export interface ToolError {
  readonly error: string;
}
/** `add_skill`, `update_skill` and `remove_skill` results. */
export type SkillIdResult = { readonly ok: true; readonly skill_id: string } | ToolError;
/** `tag_skill`'s result: the skill's counters after the tag. */
export type TagResult =
  | { readonly ok: true; readonly skill_id: string; readonly helpful_count: number; readonly harmful_count: number; readonly neutral_count: number }
  | ToolError;
/** `read_skill`'s result. */
export type ReadResult = { readonly ok: true; readonly skill: Skill } | ToolError;
/** Any tool's result, in ACE's shapes. */
export type ToolResult = SkillIdResult | TagResult | ReadResult;

/**
 * The Skillbook tools of a session; each resolves (never rejects) to ACE's result shape.
 * Arguments are typed for code, and validated at run time for untyped callers (an LLM's
 * tool call): bad arguments resolve to `{ error }`.
 *
 * @example
 * await s.tools.add_skill({ section: 'harness', issue: 'flaky network', insight: 'retry twice' });
 * // s.tools.add_skill({ sectoin: 'harness', issue: 'x' }); // a type error
 */
export interface SkillTools {
  add_skill(args: SkillToolArgs['add_skill']): Promise<SkillIdResult>;
  update_skill(args: SkillToolArgs['update_skill']): Promise<SkillIdResult>;
  remove_skill(args: SkillToolArgs['remove_skill']): Promise<SkillIdResult>;
  tag_skill(args: SkillToolArgs['tag_skill']): Promise<TagResult>;
  read_skill(args: SkillToolArgs['read_skill']): Promise<ReadResult>;
}

/** Each tool's name, description and zod schema. */
export const toolDefinitions = {
  add_skill: { description: 'Add a skill to the Skillbook.', schema: AddSkillArgs },
  update_skill: { description: "Change a skill's issue, insight or keywords.", schema: UpdateSkillArgs },
  remove_skill: { description: 'Retire a skill (soft remove).', schema: RemoveSkillArgs },
  tag_skill: { description: 'Record that a skill was helpful, harmful or neutral.', schema: TagSkillArgs },
  read_skill: { description: 'Read one skill.', schema: ReadSkillArgs },
} as const;

/**
 * The tools as JSON Schema function declarations, `{ name, description, parameters }`, in the
 * form OpenAI's strict function calling and Anthropic's tool input schemas accept (see
 * {@link toStrictJsonSchema}): every property listed in `required`, optional ones nullable.
 *
 * @example
 * const [add] = toolJsonSchemas();
 * add?.name; // 'add_skill'
 */
export function toolJsonSchemas(): { name: SkillToolName; description: string; parameters: Record<string, unknown> }[] {
  return (Object.keys(toolDefinitions) as SkillToolName[]).map((name) => ({
    name,
    description: toolDefinitions[name].description,
    parameters: toStrictJsonSchema(toolDefinitions[name].schema),
  }));
}

/**
 * Calls one of a session's tools with arguments nobody has checked (an LLM's tool call):
 * they are validated at run time and bad ones resolve to `{ error }`, as for every call.
 *
 * @example
 * await callSkillTool(s.tools, 'read_skill', JSON.parse(modelArguments));
 */
export function callSkillTool(tools: SkillTools, name: SkillToolName, raw: unknown): Promise<ToolResult> {
  const tool = tools[name] as (raw: unknown) => Promise<ToolResult>;
  return tool(raw);
}

/** What the tools need of their session. */
export interface ToolHost {
  /** Null while the session may write; otherwise why it may not. */
  endedReason(): string | null;
  readonly book: { get(id: string): Skill | undefined };
  write(raw: unknown): SessionBatchResult;
  /**
   * Null when `count` new skill ids can be allocated now; otherwise a promise that resolves
   * once more are leased — with null (look again), or with why none could be had.
   */
  whenIds?(count: number): Promise<string | null> | null;
}

/**
 * Builds a session's tools. Bad arguments give `{ error }` from zod; a call from a session
 * that has ended gives `{ error }` and is never applied; nothing throws. Each tool is a plain
 * function (it may be passed around detached); what it does is shared by every session, so a
 * session pays for five small closures over one scope, not for the tools' logic.
 */
export function createSkillTools(host: ToolHost): SkillTools {
  const [add_skill, update_skill, remove_skill, tag_skill, read_skill] = toolsOf(host);
  return { add_skill, update_skill, remove_skill, tag_skill, read_skill } as SkillTools;
}

type Tool = (raw: unknown) => Promise<ToolResult>;

/**
 * The five tools of one session, closing over one scope. (In a list, not assigned to names:
 * a closure named where it is made gets its own `name` property under esbuild's keepNames, as
 * `tsx` runs code — a dictionary of a few hundred bytes per closure, per session.)
 */
function toolsOf(host: ToolHost): [Tool, Tool, Tool, Tool, Tool] {
  return [
    (raw) => call(host, AddSkillArgs, raw, addSkill),
    (raw) => call(host, UpdateSkillArgs, raw, updateSkill),
    (raw) => call(host, RemoveSkillArgs, raw, removeSkill),
    (raw) => call(host, TagSkillArgs, raw, tagSkill),
    (raw) => call(host, ReadSkillArgs, raw, readSkill),
  ];
}

function call<S extends z.ZodType>(host: ToolHost, schema: S, raw: unknown, run: (host: ToolHost, args: z.infer<S>) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  const parsed = parseToolArguments(schema, raw);
  if (!parsed.ok) return Promise.resolve({ error: parsed.error });
  const ended = host.endedReason();
  if (ended) return Promise.resolve({ error: ended });
  try {
    return Promise.resolve(run(host, parsed.data));
  } catch (thrown) {
    return Promise.resolve(toolFailed(thrown));
  }
}

function toolFailed(thrown: unknown): ToolError {
  return { error: `tool failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
}

function write(host: ToolHost, op: Record<string, unknown>, id: string | undefined): SkillIdResult {
  const result = host.write({ operations: [op] });
  if (!result.ok) return { error: result.error.message };
  const applied = result.applied[0];
  return { ok: true, skill_id: applied?.skill_id ?? id ?? '' };
}

function addSkill(host: ToolHost, a: z.infer<typeof AddSkillArgs>): ToolResult | Promise<ToolResult> {
  const waiting = a.skill_id === undefined ? host.whenIds?.(1) : null;
  return waiting ? afterIds(host, waiting, a) : write(host, { type: 'ADD', ...a }, a.skill_id);
}

/** Waits for the runtime's next id lease, then adds; a lease that cannot be had is an `{ error }`. */
async function afterIds(host: ToolHost, waiting: Promise<string | null>, a: z.infer<typeof AddSkillArgs>): Promise<ToolResult> {
  for (let next: Promise<string | null> | null | undefined = waiting; next; next = host.whenIds?.(1)) {
    const error = await next;
    if (error !== null) return { error };
  }
  try {
    return write(host, { type: 'ADD', ...a }, a.skill_id);
  } catch (thrown) {
    return toolFailed(thrown);
  }
}

function updateSkill(host: ToolHost, a: z.infer<typeof UpdateSkillArgs>): ToolResult {
  const skill = host.book.get(a.skill_id);
  return skill ? write(host, { type: 'UPDATE', section: skill.section, ...a }, a.skill_id) : notFound(a.skill_id);
}

function removeSkill(host: ToolHost, a: z.infer<typeof RemoveSkillArgs>): ToolResult {
  const skill = host.book.get(a.skill_id);
  return skill ? write(host, { type: 'REMOVE', section: skill.section, ...a }, a.skill_id) : notFound(a.skill_id);
}

function tagSkill(host: ToolHost, a: z.infer<typeof TagSkillArgs>): ToolResult {
  const skill = host.book.get(a.skill_id);
  if (!skill) return notFound(a.skill_id);
  const delta = a.tag === 'helpful' ? 1 : a.tag === 'harmful' ? -1 : 0;
  const { tag: _tag, ...rest } = a;
  const result = write(host, { type: 'TAG', section: skill.section, ...rest, metadata: { delta } }, a.skill_id);
  if ('error' in result) return result;
  const after = host.book.get(a.skill_id);
  return {
    ok: true,
    skill_id: a.skill_id,
    helpful_count: after?.helpful_count ?? 0,
    harmful_count: after?.harmful_count ?? 0,
    neutral_count: after?.neutral_count ?? 0,
  };
}

function readSkill(host: ToolHost, a: z.infer<typeof ReadSkillArgs>): ToolResult {
  const skill = host.book.get(a.skill_id);
  return skill ? { ok: true, skill } : notFound(a.skill_id);
}

function notFound(id: string): ToolError {
  return { error: `skill not found: ${id}` };
}
