import type { McpClient } from './McpClient.ts';
import { registerReadTools } from './registerReadTools.ts';
import { registerWriteTools } from './registerWriteTools.ts';

/** Every tool of the server: the reading tools always, the task and write tools unless read-only. */
export function registerTools(client: McpClient): void {
  registerReadTools(client);
  if (!client.ctx.readOnly) registerWriteTools(client);
}
