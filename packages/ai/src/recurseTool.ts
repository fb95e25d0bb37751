import { jsonSchema, tool } from 'ai';
import type { Tool } from 'ai';
import { z } from 'zod';
import { createRecurseTool, defaultLimits, parseToolArguments, toStrictJsonSchema } from '@cohort/runtime';
import type { FailureKind, Limits, Session, SessionOutcome } from '@cohort/runtime';
import type { AgentModel, RecurseOptions } from './AgentOptions.ts';
import { runAgent } from './runAgent.ts';

function text(max: number): z.ZodString {
  return z.string().trim().min(1).max(max, `at most ${max} characters`);
}

/** The `recurse` tool's arguments under `limits`: a prompt and a name bounded, at most `maxChildren` tasks. */
function recurseToolArgs(limits: Limits) {
  return z.strictObject({
    tasks: z
      .array(
        z.strictObject({
          prompt: text(limits.maxTextLength).describe('the sub-task, written as a prompt for the child agent'),
          name: text(limits.maxIdLength).optional().describe('a short name for the child session'),
        }),
      )
      .min(1)
      .max(limits.maxChildren, `at most ${limits.maxChildren} tasks`)
      .describe('one child session per task; they run in parallel'),
  });
}

/** The `recurse` tool's arguments, as the model sends them (under the default limits; the tool checks its session's). */
export const RecurseToolArgs = recurseToolArgs(defaultLimits);

/** What the model gets back per task, in the tasks' order. */
export type RecurseTaskResult =
  | { readonly status: 'committed'; readonly name?: string; readonly text: string; readonly added: readonly string[] }
  | { readonly status: 'failed'; readonly name?: string; readonly kind: FailureKind; readonly message: string };

/** The `recurse` tool's result: one entry per task, or why the call was refused. */
export type RecurseToolResult = readonly RecurseTaskResult[] | { readonly error: string };

const DESCRIPTION =
  'Run sub-tasks in parallel, each as an isolated child agent with its own Skillbook draft. ' +
  'A child that finishes commits its skills into yours (you get its answer and the ids it added); a child that fails leaves nothing behind (you get why).';

/**
 * The `recurse` tool of an agent running in `session`: each task becomes a child session, all
 * in parallel, each running its own agent loop ({@link runAgent}) with its own Skillbook tools
 * and private draft. A child that fails (its model throws, its timeout fires, its budget runs
 * out) reaches the model as `{ status: 'failed', kind, message }` and none of its writes reach
 * this session. `runAgent`'s `recurse` option builds it; use it directly with your own loop.
 *
 * @example
 * const tools = { ...skillTools(s), recurse: recurseTool(s, { model, timeoutMs: 60_000 }) };
 */
export function recurseTool(session: Session, options: RecurseOptions & { readonly model: AgentModel }): Tool<unknown, RecurseToolResult> {
  const { model, depth = 0, tools, timeoutMs, budget, ...rest } = options;
  const runner = createRecurseTool(
    async (child, task) => {
      const result = await runAgent(child, {
        ...rest,
        model,
        prompt: task.task,
        ...(tools ? { tools: tools(child) } : {}),
        ...(depth > 0 ? { recurse: { ...options, depth: depth - 1 } } : {}),
      });
      return result.text;
    },
    { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(budget !== undefined ? { budget } : {}) },
  );
  const args = recurseToolArgs(session.limits);
  return tool({
    description: DESCRIPTION,
    inputSchema: jsonSchema<unknown>(toStrictJsonSchema(args)),
    strict: true,
    async execute(input: unknown): Promise<RecurseToolResult> {
      const parsed = parseToolArguments(args, input);
      if (!parsed.ok) return { error: parsed.error };
      const tasks = parsed.data.tasks.map(({ prompt, name }) => ({ task: prompt, ...(name !== undefined ? { name } : {}) }));
      const result = await runner.call(session, { tasks });
      if ('error' in result) return result;
      return result.outcomes.map((outcome, i) => taskResult(outcome, tasks[i]?.name));
    },
  });
}

function taskResult(outcome: SessionOutcome<string>, name: string | undefined): RecurseTaskResult {
  const named = name !== undefined ? { name } : {};
  if (outcome.status === 'committed') return { status: 'committed', ...named, text: outcome.output, added: outcome.added };
  return { status: 'failed', ...named, kind: outcome.failure.kind, message: outcome.failure.message };
}
