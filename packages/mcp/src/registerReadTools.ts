import type { Skillbook } from '@cohort/skillbook';
import type { McpClient } from './McpClient.ts';
import { inputSchemas, outputSchemas } from './schemas.ts';
import { searchSkills } from './searchSkills.ts';
import { ok, refused } from './toolResult.ts';

/** The book a read sees: the committed book, or a task's draft (its own writes included). */
function bookFor(client: McpClient, task: string | undefined): Skillbook | { readonly error: string } {
  if (task === undefined) return client.ctx.runtime.book;
  const found = client.task(task);
  return 'error' in found ? found : found.session.book;
}

/** `skillbook.get`, `read_skill`, `skillbook.search`: reading the committed book, or a task's draft. */
export function registerReadTools(client: McpClient): void {
  const inputs = inputSchemas(client.ctx.limits);
  const read = { readOnlyHint: true, openWorldHint: false };

  client.server.registerTool(
    'skillbook.get',
    {
      title: 'Get the Skillbook',
      description: "The Skillbook's active skills as ACE's prompt text (`## context`, `## harness`), with its stats and revision.",
      inputSchema: inputs.get,
      outputSchema: outputSchemas.get,
      annotations: read,
    },
    async ({ task }) => {
      client.touch();
      const book = bookFor(client, task);
      if ('error' in book) return refused(book.error);
      const structured = { prompt: book.asPrompt(), revision: book.revision, stats: book.stats(), ...(task ? { task } : {}) };
      return ok(structured, structured.prompt || '(the Skillbook has no active skills)');
    },
  );

  client.server.registerTool(
    'read_skill',
    {
      title: 'Read a skill',
      description: 'One skill, whole (counters, sources, active flag), from the committed book or a task.',
      inputSchema: inputs.read,
      outputSchema: outputSchemas.read,
      annotations: read,
    },
    async ({ skill_id, task }) => {
      client.touch();
      const book = bookFor(client, task);
      if ('error' in book) return refused(book.error);
      const skill = book.get(skill_id);
      if (!skill) return refused(`skill not found: ${skill_id}`);
      return ok({ skill: { ...skill }, ...(task ? { task } : {}) });
    },
  );

  client.server.registerTool(
    'skillbook.search',
    {
      title: 'Search the Skillbook',
      description:
        "The active skills most relevant to a task, best first: each word or keyword scores 3 in a skill's keywords, 2 in its issue, 1 in its insight; ties go to the more helpful skill.",
      inputSchema: inputs.search,
      outputSchema: outputSchemas.search,
      annotations: read,
    },
    async ({ text, keywords, section, limit }) => {
      client.touch();
      if (text === undefined && keywords === undefined) return refused('give text, keywords or both');
      const book = client.ctx.runtime.book;
      const hits = searchSkills(book, { text, keywords, section, limit: limit ?? 10 });
      return ok({ revision: book.revision, hits: hits.map((h) => ({ score: h.score, skill: { ...h.skill } })) });
    },
  );
}
