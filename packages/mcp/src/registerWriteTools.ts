import type { SkillToolName, ToolResult } from '@cohort/runtime';
import { callSkillTool } from '@cohort/runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpClient } from './McpClient.ts';
import { inputSchemas, outputSchemas } from './schemas.ts';
import type { TaskResult } from './TaskSession.ts';
import { ok, refused } from './toolResult.ts';

type WriteTool = Extract<SkillToolName, 'add_skill' | 'update_skill' | 'tag_skill' | 'remove_skill'>;

const WRITES: Readonly<Record<WriteTool, string>> = {
  add_skill: 'Add a skill (section context or harness, issue, insight, keywords).',
  update_skill: "Change a skill's issue, insight or keywords; what is absent stays.",
  tag_skill: 'Record that a skill was helpful, harmful or neutral.',
  remove_skill: 'Retire a skill (a soft remove: it leaves the prompt).',
};

/** A commit's result as the tool answers it: a refusal, with the result as values, unless it committed. */
function commitAnswer(result: TaskResult): CallToolResult {
  if (result.status === 'committed') return ok({ ...result });
  const why = result.conflicts.map((c) => `${c.type} ${c.skillId}: ${c.reason}`).join('; ');
  const answer = refused(`task ${result.task} ${result.status}: ${why || result.message || 'nothing was written'}`);
  return { ...answer, structuredContent: { ...result, error: answer.structuredContent?.error } };
}

/** One write: in the task named, or alone in a task of its own, committed at once. */
async function write(client: McpClient, tool: WriteTool, raw: Record<string, unknown>): Promise<CallToolResult> {
  const { task: taskId, ...args } = raw;
  if (typeof taskId === 'string') {
    const task = client.task(taskId);
    if ('error' in task) return refused(task.error);
    const result: ToolResult = await callSkillTool(task.session.tools, tool, args);
    return 'error' in result ? refused(result.error) : ok({ ...result, task: taskId });
  }
  const task = await client.begin(tool);
  if ('error' in task) return refused(task.error);
  const result: ToolResult = await callSkillTool(task.session.tools, tool, args);
  if ('error' in result) {
    await client.end(task, 'abort', 'the write was refused');
    return refused(result.error);
  }
  const commit = await client.end(task, 'commit');
  if (commit.status !== 'committed') return commitAnswer(commit);
  return ok({ ...result, commit: { ...commit } });
}

/**
 * The task tools (`task.begin`, `task.commit`, `task.abort`, `task.list`) and the Skillbook's
 * four writes (`add_skill`, `update_skill`, `tag_skill`, `remove_skill`), each inside a task
 * or as a one-shot write.
 */
export function registerWriteTools(client: McpClient): void {
  const inputs = inputSchemas(client.ctx.limits);
  const rt = client.ctx.runtime;

  client.server.registerTool(
    'task.begin',
    {
      title: 'Begin a task',
      description:
        'Start a task: a private draft of the Skillbook. Writes that name the task go to its draft, invisible to everyone else until task.commit; task.abort drops them.',
      inputSchema: inputs.begin,
      outputSchema: outputSchemas.begin,
    },
    async ({ name }) => {
      client.touch();
      const task = await client.begin(name);
      if ('error' in task) return refused(task.error);
      return ok({ task: task.id, name: task.name, baseRevision: rt.revision });
    },
  );

  client.server.registerTool(
    'task.commit',
    {
      title: 'Commit a task',
      description:
        "Commit a task's draft as a whole: the result says what landed and the final skill ids, or — when another writer changed the same skills meanwhile — the conflicts, and nothing is written.",
      inputSchema: inputs.end,
      outputSchema: outputSchemas.end,
    },
    async ({ task: id }) => {
      client.touch();
      const task = client.task(id);
      if ('error' in task) return refused(task.error);
      return commitAnswer(await client.end(task, 'commit'));
    },
  );

  client.server.registerTool(
    'task.abort',
    {
      title: 'Abort a task',
      description: "Drop a task's draft: nothing of it is written anywhere.",
      inputSchema: inputs.end,
      outputSchema: outputSchemas.end,
      annotations: { destructiveHint: false },
    },
    async ({ task: id }) => {
      client.touch();
      const task = client.task(id);
      if ('error' in task) return refused(task.error);
      return ok({ ...(await client.end(task, 'abort')) });
    },
  );

  client.server.registerTool(
    'task.list',
    { title: 'List open tasks', description: "This client's open tasks.", inputSchema: inputs.list, outputSchema: outputSchemas.list },
    async () => {
      client.touch();
      const tasks = client.openTasks().map((t) => ({ task: t.id, name: t.name, ops: t.writes }));
      return ok({ tasks });
    },
  );

  for (const tool of Object.keys(WRITES) as WriteTool[]) {
    client.server.registerTool(
      tool,
      {
        title: tool.replace('_', ' '),
        description: `${WRITES[tool]} With \`task\`: inside that task's draft. Without: a one-shot write, committed at once.`,
        inputSchema: inputs[tool],
        outputSchema: outputSchemas.write,
      },
      async (args: Record<string, unknown>) => {
        client.touch();
        return write(client, tool, args);
      },
    );
  }
}
