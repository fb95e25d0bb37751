import { z } from 'zod';
import type { Skill } from '@cohort/skillbook';
import type { SessionBatchResult } from './Session.ts';

const text = z.string().trim().min(1);
const InsightSourceArg = z.looseObject({ source_system: z.string(), trace_id: z.string() });
const insightSource = z.union([InsightSourceArg, z.array(InsightSourceArg)]).optional();

/** `add_skill` arguments. */
export const AddSkillArgs = z.strictObject({
  section: text.describe('context or harness (other names are legacy sections, folded into context)'),
  issue: text.describe('the situation the skill is about'),
  insight: z.string().optional().describe('what to do about it (required for context skills)'),
  keywords: z.array(z.string()).optional(),
  skill_id: text.optional().describe('an explicit id; omit to have one allocated'),
  insight_source: insightSource,
});
/** `update_skill` arguments; absent fields stay unchanged. */
export const UpdateSkillArgs = z.strictObject({
  skill_id: text,
  issue: z.string().optional(),
  insight: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  insight_source: insightSource,
});
/** `remove_skill` arguments (a soft remove, as ACE). */
export const RemoveSkillArgs = z.strictObject({ skill_id: text, reason: z.string().optional() });
/** `tag_skill` arguments. */
export const TagSkillArgs = z.strictObject({
  skill_id: text,
  tag: z.enum(['helpful', 'harmful', 'neutral']),
  insight_source: insightSource,
});
/** `read_skill` arguments. */
export const ReadSkillArgs = z.strictObject({ skill_id: text });

/** A tool's result, in ACE's shapes. */
export type ToolResult =
  | { readonly ok: true; readonly skill_id: string }
  | { readonly ok: true; readonly skill_id: string; readonly helpful_count: number; readonly harmful_count: number; readonly neutral_count: number }
  | { readonly ok: true; readonly skill: Skill }
  | { readonly error: string };

/** The Skillbook tools of a session; each resolves (never rejects) to ACE's result shape. */
export interface SkillTools {
  add_skill(args: unknown): Promise<ToolResult>;
  update_skill(args: unknown): Promise<ToolResult>;
  remove_skill(args: unknown): Promise<ToolResult>;
  tag_skill(args: unknown): Promise<ToolResult>;
  read_skill(args: unknown): Promise<ToolResult>;
}

/** Each tool's name, description, zod schema and JSON Schema (for LLM function calling). */
export const toolDefinitions = {
  add_skill: { description: 'Add a skill to the Skillbook.', schema: AddSkillArgs },
  update_skill: { description: "Change a skill's issue, insight or keywords.", schema: UpdateSkillArgs },
  remove_skill: { description: 'Retire a skill (soft remove).', schema: RemoveSkillArgs },
  tag_skill: { description: 'Record that a skill was helpful, harmful or neutral.', schema: TagSkillArgs },
  read_skill: { description: 'Read one skill.', schema: ReadSkillArgs },
} as const;

/** The tools as JSON Schema function declarations: `{ name, description, parameters }`. */
export function toolJsonSchemas(): { name: string; description: string; parameters: unknown }[] {
  return Object.entries(toolDefinitions).map(([name, d]) => ({
    name,
    description: d.description,
    parameters: z.toJSONSchema(d.schema),
  }));
}

/** What the tools need of their session. */
export interface ToolHost {
  /** Null while the session may write; otherwise why it may not. */
  endedReason(): string | null;
  readonly book: { get(id: string): Skill | undefined };
  write(raw: unknown): SessionBatchResult;
}

/**
 * Builds a session's tools. Bad arguments give `{ error }` from zod; a call from a session
 * that has ended gives `{ error }` and is never applied; nothing throws. Each tool is a plain
 * function (it may be passed around detached); what it does is shared by every session, so a
 * session pays for five small closures over one scope, not for the tools' logic.
 */
export function createSkillTools(host: ToolHost): SkillTools {
  const [add_skill, update_skill, remove_skill, tag_skill, read_skill] = toolsOf(host);
  return { add_skill, update_skill, remove_skill, tag_skill, read_skill };
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

function call<S extends z.ZodType>(host: ToolHost, schema: S, raw: unknown, run: (host: ToolHost, args: z.infer<S>) => ToolResult): Promise<ToolResult> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return Promise.resolve({ error: `invalid arguments: ${z.prettifyError(parsed.error)}` });
  const ended = host.endedReason();
  if (ended) return Promise.resolve({ error: ended });
  try {
    return Promise.resolve(run(host, parsed.data));
  } catch (thrown) {
    return Promise.resolve({ error: `tool failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` });
  }
}

function write(host: ToolHost, op: Record<string, unknown>, id: string | undefined): ToolResult {
  const result = host.write({ operations: [op] });
  if (!result.ok) return { error: result.error.message };
  const applied = result.applied[0];
  return { ok: true, skill_id: applied?.skill_id ?? id ?? '' };
}

function addSkill(host: ToolHost, a: z.infer<typeof AddSkillArgs>): ToolResult {
  return write(host, { type: 'ADD', ...a }, a.skill_id);
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

function notFound(id: string): ToolResult {
  return { error: `skill not found: ${id}` };
}
