import { z } from 'zod';
import { memoByLimits } from './internal/memoByLimits.ts';
import type { Limits } from './Limits.ts';
import { defaultLimits } from './Limits.ts';
import type { Session, SpawnOptions } from './Session.ts';
import type { SessionOutcome } from './SessionOutcome.ts';
import { parseToolArguments, toStrictJsonSchema } from './strictToolSchema.ts';

function text(max: number, key: keyof Limits): z.ZodString {
  return z.string().trim().min(1).max(max, `at most ${max} characters (limits.${key})`);
}

/** The `recurse` schemas under `l`: a task's text and name bounded, at most `maxChildren` tasks. */
function recurseSchemas(l: Limits) {
  const task = z.strictObject({
    task: text(l.maxTextLength, 'maxTextLength').describe('what the child session should do'),
    name: text(l.maxIdLength, 'maxIdLength').optional().describe('a short name for the child session'),
  });
  const args = z.strictObject({
    tasks: z
      .array(task)
      .min(1)
      .max(l.maxChildren, `at most ${l.maxChildren} tasks (limits.maxChildren)`)
      .describe('one child session per task, run in parallel'),
  });
  return { task, args, call: z.union([args, task]) };
}

/** Built once per set of limit values (see `memoByLimits`). */
const schemasFor = memoByLimits((l) => `${l.maxTextLength} ${l.maxIdLength} ${l.maxChildren}`, recurseSchemas);

const Task = schemasFor(defaultLimits).task;

/** `recurse` arguments: the tasks to run in parallel, each as an isolated child session (under the default limits; a call checks the session's own). */
export const RecurseArgs = schemasFor(defaultLimits).args;

/** What `recurse.call` accepts: {@link RecurseArgs}, or one task on its own (`{ task, name? }`). */
export type RecurseInput = z.input<typeof RecurseArgs> | z.input<typeof Task>;

/** One child's task, as the runner receives it. */
export type RecurseTask = z.infer<typeof Task>;

/** The user's child runner: runs a child session's agent loop, returns its answer. */
export type ChildRunner = (session: Session<RecurseTask>, task: RecurseTask) => Promise<string>;

/** What a `recurse` call returns: one line per child for the model, and the outcomes for code. */
export type RecurseResult = { readonly text: string; readonly outcomes: readonly SessionOutcome<string>[] } | { readonly error: string };

/**
 * The `recurse` tool: its schema (zod, and JSON Schema in the strict form providers accept,
 * see `toStrictJsonSchema`) and its call. Arguments are typed for code and validated at run
 * time for untyped callers (`null` for `name` means absent); bad ones give `{ error }`.
 */
export interface RecurseTool {
  readonly name: 'recurse';
  readonly description: string;
  readonly schema: typeof RecurseArgs;
  readonly parameters: Record<string, unknown>;
  call(session: Session, args: RecurseInput): Promise<RecurseResult>;
}

/**
 * Builds ACE's `recurse` tool on Cohort sessions: each task runs as an isolated child session
 * (siblings in parallel); the model gets one line per child — committed with the skill ids
 * it added, or failed with the failure's kind and message — never a crash.
 *
 * @example
 * const recurse = createRecurseTool(async (child, { task }) => {
 *   await child.tools.add_skill({ section: 'harness', issue: task, insight: 'noted' });
 *   return `did ${task}`;
 * });
 * // inside a session body: const { text } = await recurse.call(s, { tasks: [{ task: 'a' }, { task: 'b' }] });
 */
export function createRecurseTool(runner: ChildRunner, options: Omit<SpawnOptions<RecurseTask>, 'input' | 'name'> = {}): RecurseTool {
  return {
    name: 'recurse',
    description: 'Run sub-tasks as isolated child sessions; each commits its Skillbook changes or fails cleanly.',
    schema: RecurseArgs,
    parameters: toStrictJsonSchema(RecurseArgs),
    async call(session, raw) {
      const parsed = parseToolArguments(schemasFor(session.limits).call, raw);
      if (!parsed.ok) return { error: parsed.error };
      const tasks = 'tasks' in parsed.data ? parsed.data.tasks : [parsed.data];
      const outcomes = await Promise.all(
        tasks.map((task) =>
          session.spawn<RecurseTask, string>((child) => runner(child, task), {
            ...options,
            input: task,
            ...(task.name !== undefined ? { name: task.name } : {}),
          }),
        ),
      );
      const text = outcomes.map((o, i) => describeChild(tasks[i]?.name ?? o.sessionId, o)).join('\n');
      return { text, outcomes };
    },
  };
}

function describeChild(label: string, outcome: SessionOutcome<string>): string {
  if (outcome.status === 'failed') return `- ${label}: failed (${outcome.failure.kind}): ${outcome.failure.message}`;
  const added = outcome.added.length > 0 ? `added ${outcome.added.join(', ')}` : 'added no skills';
  const answer = typeof outcome.output === 'string' && outcome.output.trim() !== '' ? ` — ${oneLine(outcome.output)}` : '';
  return `- ${label}: committed (${added})${answer}`;
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
