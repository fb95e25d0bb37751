import type { z } from 'zod';
import type { OperationFields, Skill } from '@cohort/skillbook';
import type { Limits } from './Limits.ts';
import { defaultLimits } from './Limits.ts';
import type { SessionOperationResult } from './Session.ts';
import { checkedArguments, toJsonSchema, toStrictJsonSchema } from './strictToolSchema.ts';
import { AddSkillArgs, ReadSkillArgs, RemoveSkillArgs, TagSkillArgs, UpdateSkillArgs, toolSchemas } from './toolSchemas.ts';
import type { ToolSchemas } from './toolSchemas.ts';

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
  | {
      readonly ok: true;
      readonly skill_id: string;
      readonly helpful_count: number;
      readonly harmful_count: number;
      readonly neutral_count: number;
    }
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

const DESCRIPTIONS: Readonly<Record<SkillToolName, string>> = {
  add_skill: 'Add a skill to the Skillbook.',
  update_skill: "Change a skill's issue, insight or keywords.",
  remove_skill: 'Retire a skill (soft remove).',
  tag_skill: 'Record that a skill was helpful, harmful or neutral.',
  read_skill: 'Read one skill.',
};

/** Each tool's name, description and zod schema (under the default limits; a runtime's own limits: {@link toolJsonSchemas}). */
export const toolDefinitions = {
  add_skill: { description: DESCRIPTIONS.add_skill, schema: AddSkillArgs },
  update_skill: { description: DESCRIPTIONS.update_skill, schema: UpdateSkillArgs },
  remove_skill: { description: DESCRIPTIONS.remove_skill, schema: RemoveSkillArgs },
  tag_skill: { description: DESCRIPTIONS.tag_skill, schema: TagSkillArgs },
  read_skill: { description: DESCRIPTIONS.read_skill, schema: ReadSkillArgs },
} as const;

/** Options of {@link toolJsonSchemas}. */
export interface ToolSchemaOptions {
  /** The limits the schemas state (default: the runtime defaults; pass `session.limits` for a runtime of its own). */
  readonly limits?: Partial<Limits>;
  /**
   * `true` (default): the form OpenAI's strict function calling and Anthropic's tool use accept —
   * every property required, optional ones nullable, and the limits in each field's description
   * (strict modes refuse `maxLength` / `maxItems`). `false`: plain JSON Schema with `maxLength`
   * and `maxItems`, for callers that validate or providers that take any schema.
   */
  readonly strict?: boolean;
}

/**
 * The tools as JSON Schema function declarations, `{ name, description, parameters }`. By
 * default in the strict form OpenAI and Anthropic accept (see {@link toStrictJsonSchema}), the
 * limits stated in the descriptions; with `strict: false` as plain JSON Schema with `maxLength`
 * and `maxItems`.
 *
 * @example
 * const [add] = toolJsonSchemas();
 * add?.name; // 'add_skill'
 */
export function toolJsonSchemas(
  options: ToolSchemaOptions = {},
): { name: SkillToolName; description: string; parameters: Record<string, unknown> }[] {
  const schemas = toolSchemas(options.limits ? { ...defaultLimits, ...options.limits } : defaultLimits);
  const convert = options.strict === false ? toJsonSchema : toStrictJsonSchema;
  return (Object.keys(DESCRIPTIONS) as SkillToolName[]).map((name) => ({
    name,
    description: DESCRIPTIONS[name],
    parameters: convert(schemas[name]),
  }));
}

/**
 * Calls one of a session's tools with arguments nobody has checked (an LLM's tool call):
 * they are validated at run time and bad ones resolve to `{ error }`, as for every call; so
 * does a name that is no tool's.
 *
 * @example
 * await callSkillTool(s.tools, 'read_skill', JSON.parse(modelArguments));
 */
export function callSkillTool(tools: SkillTools, name: SkillToolName, raw: unknown): Promise<ToolResult> {
  if (!Object.hasOwn(DESCRIPTIONS, name)) return Promise.resolve({ error: `unknown tool: ${String(name)}` });
  const tool = tools[name] as (raw: unknown) => Promise<ToolResult>;
  return tool(raw);
}

/** What the tools need of their session. */
export interface ToolHost {
  /** The runtime's limits: what the arguments are checked against. */
  readonly limits: Limits;
  /** Null while the session may write; otherwise why it may not. */
  endedReason(): string | null;
  readonly book: { get(id: string): Skill | undefined };
  /** Writes one op into the session's draft, as a batch of it would be applied; the tools have checked the session may write. */
  writeOperation(op: OperationFields): SessionOperationResult;
  /**
   * Null when `count` new skill ids can be allocated now; otherwise a promise that resolves
   * once more are leased — with null (look again), or with why none could be had.
   */
  whenIds?(count: number): Promise<string | null> | null;
  /** Told of every call answered `{ error }` (a session counts them; see `RefusedCalls`). */
  refused?(tool: SkillToolName, error: string): void;
}

/**
 * Builds a session's tools. Arguments are read once into plain data (a throwing getter or
 * Proxy is an `{ error }`, never a rejection) and checked against the schemas under the host's
 * limits: bad or oversized ones give `{ error }` naming the field and the limit; a call from a
 * session that has ended gives `{ error }` and is never applied; nothing throws. Each tool is a plain
 * function (it may be passed around detached).
 */
export function createSkillTools(host: ToolHost): SkillTools {
  const schemas: ToolSchemas = toolSchemas(host.limits);
  return {
    add_skill: (raw) => noted(host, 'add_skill', call(host, schemas.add_skill, raw, addSkill)),
    update_skill: (raw) => noted(host, 'update_skill', call(host, schemas.update_skill, raw, updateSkill)),
    remove_skill: (raw) => noted(host, 'remove_skill', call(host, schemas.remove_skill, raw, removeSkill)),
    tag_skill: (raw) => noted(host, 'tag_skill', call(host, schemas.tag_skill, raw, tagSkill)),
    read_skill: (raw) => noted(host, 'read_skill', call(host, schemas.read_skill, raw, readSkill)),
  } as SkillTools;
}

/** `result`, its host told when it is an `{ error }` (a waiting ADD's, once it is answered). */
function noted(host: ToolHost, tool: SkillToolName, result: ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  if (!host.refused) return Promise.resolve(result);
  if (result instanceof Promise) return result.then((answered) => noted(host, tool, answered));
  if ('error' in result) host.refused(tool, result.error);
  return Promise.resolve(result);
}

/** One call: the arguments read once into plain data and checked, then run; whatever throws on the way is an `{ error }`. */
function call<S extends z.ZodType>(
  host: ToolHost,
  schema: S,
  raw: unknown,
  run: (host: ToolHost, args: z.infer<S>) => ToolResult | Promise<ToolResult>,
): ToolResult | Promise<ToolResult> {
  try {
    const checked = checkedArguments(schema, raw);
    if (typeof checked === 'string') return { error: checked };
    return ended(host) ?? run(host, checked.data);
  } catch (thrown) {
    return toolFailed(thrown);
  }
}

/** The one check before a tool runs (and before an ADD that waited for ids writes): has the session ended? */
function ended(host: ToolHost): ToolError | null {
  const reason = host.endedReason();
  return reason ? { error: reason } : null;
}

function toolFailed(thrown: unknown): ToolError {
  return { error: `tool failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
}

/** Writes one op; `id` is the op's own (an UPDATE's target), reported when the op was skipped. */
function write(host: ToolHost, op: OperationFields, id: string | undefined): SkillIdResult {
  const result = host.writeOperation(op);
  return result.ok ? { ok: true, skill_id: result.applied?.skill_id ?? id ?? '' } : { error: result.error.message };
}

function addSkill(host: ToolHost, a: z.infer<ToolSchemas['add_skill']>): ToolResult | Promise<ToolResult> {
  const waiting = a.skill_id === undefined ? host.whenIds?.(1) : null;
  return waiting ? afterIds(host, waiting, a) : write(host, addOperation(a), a.skill_id);
}

/** The ADD of checked arguments, every field its own (see `OperationFields`). */
function addOperation(a: z.infer<ToolSchemas['add_skill']>): OperationFields {
  const { section, skill_id, issue, keywords, insight, insight_source } = a;
  return { type: 'ADD', section, skill_id, issue, keywords, insight, metadata: undefined, reason: undefined, insight_source };
}

/** Waits for the runtime's next id lease, then adds; a lease that cannot be had is an `{ error }`. */
async function afterIds(host: ToolHost, waiting: Promise<string | null>, a: z.infer<ToolSchemas['add_skill']>): Promise<ToolResult> {
  for (let next: Promise<string | null> | null | undefined = waiting; next; next = host.whenIds?.(1)) {
    const error = await next;
    if (error !== null) return { error };
  }
  // the session may have ended while it waited
  try {
    return ended(host) ?? write(host, addOperation(a), a.skill_id);
  } catch (thrown) {
    return toolFailed(thrown);
  }
}

function updateSkill(host: ToolHost, a: z.infer<ToolSchemas['update_skill']>): ToolResult {
  const skill = host.book.get(a.skill_id);
  if (!skill) return notFound(a.skill_id);
  const { skill_id, issue, keywords, insight, insight_source } = a;
  const op: OperationFields = {
    type: 'UPDATE',
    section: skill.section,
    skill_id,
    issue,
    keywords,
    insight,
    metadata: undefined,
    reason: undefined,
    insight_source,
  };
  return write(host, op, skill_id);
}

function removeSkill(host: ToolHost, a: z.infer<ToolSchemas['remove_skill']>): ToolResult {
  const skill = host.book.get(a.skill_id);
  if (!skill) return notFound(a.skill_id);
  const op: OperationFields = {
    type: 'REMOVE',
    section: skill.section,
    skill_id: a.skill_id,
    issue: undefined,
    keywords: undefined,
    insight: undefined,
    metadata: undefined,
    reason: a.reason,
    insight_source: undefined,
  };
  return write(host, op, a.skill_id);
}

function tagSkill(host: ToolHost, a: z.infer<ToolSchemas['tag_skill']>): ToolResult {
  const skill = host.book.get(a.skill_id);
  if (!skill) return notFound(a.skill_id);
  const delta = a.tag === 'helpful' ? 1 : a.tag === 'harmful' ? -1 : 0;
  const op: OperationFields = {
    type: 'TAG',
    section: skill.section,
    skill_id: a.skill_id,
    issue: undefined,
    keywords: undefined,
    insight: undefined,
    metadata: { delta },
    reason: undefined,
    insight_source: a.insight_source,
  };
  const result = write(host, op, a.skill_id);
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

function readSkill(host: ToolHost, a: z.infer<ToolSchemas['read_skill']>): ToolResult {
  const skill = host.book.get(a.skill_id);
  return skill ? { ok: true, skill } : notFound(a.skill_id);
}

function notFound(id: string): ToolError {
  return { error: `skill not found: ${id}` };
}
