import type { AppliedOp, Skillbook } from '@cohort/skillbook';
import type { OpPlan, TargetPlan } from './Scenario.ts';

/** A skill tool that writes. */
export type WriteTool = 'add_skill' | 'update_skill' | 'remove_skill' | 'tag_skill';

/** What targets resolve against, when the op runs. */
export interface TargetEnv {
  readonly seedIds: readonly string[];
  readonly book: Skillbook;
  /** Ids this session added so far. */
  readonly own: readonly string[];
}

/** An id nobody allocates (the allocator is far below it). */
export const MISSING_ID = 'context-99999';

/** The skill id a target names now. */
export function resolveTarget(target: TargetPlan, env: TargetEnv): string {
  if (target.from === 'missing') return MISSING_ID;
  if (target.from === 'shared') return target.name;
  if (target.from === 'seed') return env.seedIds[target.index % Math.max(1, env.seedIds.length)] ?? MISSING_ID;
  if (target.from === 'own' && env.own.length > 0) return env.own[target.index % env.own.length] ?? MISSING_ID;
  const visible = [...env.book.skills()].map((s) => s.id);
  return visible[target.index % Math.max(1, visible.length)] ?? MISSING_ID;
}

/** The raw ACE operation of a scripted batch op (malformed when the plan says so). */
export function rawOp(plan: OpPlan, env: TargetEnv): unknown {
  if (plan.invalid === 'not-an-object') return `garbage ${plan.text}`;
  const id = plan.target ? resolveTarget(plan.target, env) : undefined;
  const section = (id && env.book.get(id)?.section) ?? plan.section;
  const op: Record<string, unknown> =
    plan.type === 'ADD'
      ? {
          type: 'ADD',
          section,
          issue: plan.text,
          insight: `insight: ${plan.text}`,
          keywords: [plan.text.split(' ')[0] ?? 'k'],
          ...(id ? { skill_id: id } : {}),
        }
      : plan.type === 'UPDATE'
        ? { type: 'UPDATE', section, skill_id: id, insight: `updated: ${plan.text}` }
        : plan.type === 'TAG'
          ? { type: 'TAG', section, skill_id: id, metadata: { delta: delta(plan.text) } }
          : { type: 'REMOVE', section, skill_id: id, reason: plan.text };
  return malform(op, plan);
}

function malform(op: Record<string, unknown>, plan: OpPlan): Record<string, unknown> {
  switch (plan.invalid) {
    case 'unknown-type':
      return { ...op, type: 'FROB' };
    case 'missing-issue': {
      // an ADD without its issue; any other op without its target
      const { [plan.type === 'ADD' ? 'issue' : 'skill_id']: _gone, ...rest } = op;
      return rest;
    }
    case 'empty-id':
      return { ...op, skill_id: '' };
    case 'bad-tag':
    case 'bad-delta':
      return { ...op, metadata: { delta: 'lots' } };
    case 'extra-key':
      return { ...op, keywords: 'not a list' };
    default:
      return op;
  }
}

/** The tool call of a scripted op: which tool, and its arguments (malformed when the plan says so). */
export function toolCall(plan: OpPlan, env: TargetEnv): { tool: WriteTool; args: unknown } {
  const tool: WriteTool =
    plan.type === 'ADD' ? 'add_skill' : plan.type === 'UPDATE' ? 'update_skill' : plan.type === 'TAG' ? 'tag_skill' : 'remove_skill';
  if (plan.invalid === 'not-an-object') return { tool, args: `garbage ${plan.text}` };
  const id = plan.target ? resolveTarget(plan.target, env) : undefined;
  const args: Record<string, unknown> =
    tool === 'add_skill'
      ? { section: plan.section, issue: plan.text, insight: `insight: ${plan.text}`, ...(id ? { skill_id: id } : {}) }
      : tool === 'update_skill'
        ? { skill_id: id, insight: `updated: ${plan.text}` }
        : tool === 'tag_skill'
          ? { skill_id: id, tag: (['helpful', 'harmful', 'neutral'] as const)[delta(plan.text) + 1] }
          : { skill_id: id, reason: plan.text };
  switch (plan.invalid) {
    case 'unknown-type':
      return { tool, args: { ...args, type: 'FROB' } };
    case 'missing-issue':
      return { tool, args: tool === 'add_skill' ? { section: plan.section } : { insight: 'no id' } };
    case 'empty-id':
      return { tool, args: { ...args, skill_id: '' } };
    case 'bad-tag':
      return { tool, args: { ...args, tag: 'awesome' } };
    case 'bad-delta':
    case 'extra-key':
      return { tool, args: { ...args, keywords: 'not a list' } };
    default:
      return { tool, args };
  }
}

/**
 * The op a successful tool call applied, rebuilt independently of the runtime: ACE's tool →
 * operation mapping applied to the book the session had just before the call, at the time of
 * the call, with the id the tool reported. The reference model needs it because a tool's
 * result names the skill, not the op.
 */
export function witnessToolOp(tool: WriteTool, args: unknown, before: Skillbook, at: number, resultId: string): AppliedOp[] {
  const a = args as Record<string, unknown>;
  const section = before.get(String(a['skill_id']))?.section;
  const op =
    tool === 'add_skill'
      ? { type: 'ADD', ...a }
      : tool === 'update_skill'
        ? { type: 'UPDATE', section, ...a }
        : tool === 'remove_skill'
          ? { type: 'REMOVE', section, ...a }
          : {
              type: 'TAG',
              section,
              skill_id: a['skill_id'],
              metadata: { delta: a['tag'] === 'helpful' ? 1 : a['tag'] === 'harmful' ? -1 : 0 },
            };
  const result = before.applyBatch({ operations: [op] }, { clock: { now: () => at }, allocateId: () => resultId as never });
  return result.ok ? result.applied : [];
}

/**
 * The id a tool call just wrote, read off the draft: the target's id, an ADD's explicit id,
 * or the skill that is in the book after the call and was not before (an allocated id).
 */
export function writtenId(tool: WriteTool, args: unknown, before: Skillbook, after: Skillbook): string {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (tool !== 'add_skill' || typeof a['skill_id'] === 'string') return String(a['skill_id']);
  for (const skill of after.skills()) if (!before.has(skill.id)) return skill.id;
  return '';
}

/** -1, 0 or 1, from the text (deterministic). */
function delta(text: string): -1 | 0 | 1 {
  return ((text.length % 3) - 1) as -1 | 0 | 1;
}
