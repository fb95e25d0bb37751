import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpClient } from './McpClient.ts';
import { BOOK_URI, SKILL_URI_PREFIX, skillOfUri, skillUri } from './resourceUris.ts';

/**
 * The resources: the book (`skillbook://book`, ACE's prompt text of the committed book) and
 * each active skill (`skillbook://skills/{id}`, JSON). Both are subscribable; the server
 * sends `notifications/resources/updated` when one changes and `list_changed` when skills
 * come or go — whoever changed the book.
 */
export function registerResources(client: McpClient): void {
  const rt = client.ctx.runtime;
  client.server.registerResource(
    'skillbook',
    BOOK_URI,
    { title: 'The Skillbook', description: "The committed book's active skills as ACE's prompt text", mimeType: 'text/plain' },
    async (uri) => {
      client.touch();
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: rt.book.asPrompt() }] };
    },
  );
  client.server.registerResource(
    'skill',
    new ResourceTemplate(`${SKILL_URI_PREFIX}{id}`, {
      list: async () => {
        client.touch();
        const resources = [];
        for (const s of rt.book.skills()) {
          if (s.active) resources.push({ uri: skillUri(s.id), name: s.id, description: s.issue, mimeType: 'application/json' });
        }
        return { resources };
      },
    }),
    { title: 'A skill', description: 'One skill of the committed book, as JSON', mimeType: 'application/json' },
    async (uri) => {
      client.touch();
      const id = skillOfUri(uri.href);
      const skill = id === null ? undefined : rt.book.get(id);
      if (!skill) throw new Error(`no skill at ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(skill, null, 2) }] };
    },
  );
}
