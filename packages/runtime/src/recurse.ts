import { z } from 'zod';
import type { Session, SpawnOptions } from './Session.ts';
import type { SessionOutcome } from './SessionOutcome.ts';
import { parseToolArguments, toStrictJsonSchema } from './strictToolSchema.ts';

const text = z.string().trim().min(1);
const Task = z.strictObject({
  task: text.describe('what the child session should do'),
  name: text.optional().describe('a short name for the child session'),
});

/** `recurse` arguments: the tasks to run in parallel, each as an isolated child session. */
export const RecurseArgs = z.strictObject({
  tasks: z.array(Task).min(1).describe('one child session per task, run in parallel'),
});

/** What `recurse.call` accepts: {@link RecurseArgs}, or one task on its own (`{ task, name? }`). */
export type RecurseInput = z.input<typeof RecurseArgs> | z.input<typeof Task>;

const RecurseCallArgs = z.union([RecurseArgs, Task]);

/** One child's task, as the runner receives it. */
export type RecurseTask = z.infer<typeof Task>;

/** The user's child runner: runs a child session's agent loop, returns its answer. */
export type ChildRunner = (session: Session<RecurseTask>, task: RecurseTask) => Promise<string>;

/** What a `recurse` call returns: one line per child for the model, and the outcomes for code. */
export type RecurseResult =
  | { readonly text: string; readonly outcomes: readonly SessionOutcome<string>[] }
  | { readonly error: string };

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
      const parsed = parseToolArguments(RecurseCallArgs, raw);
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
