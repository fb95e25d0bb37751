/**
 * A client process for `cohort mcp --http`: connects to the URL in argv[2], begins a task,
 * writes one skill into it, prints the task's id and waits — to be killed mid-task.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'doomed', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(String(process.argv[2]))));
const begun = await client.callTool({ name: 'task.begin', arguments: { name: 'half-done' } });
const { task } = begun.structuredContent as { task: string };
await client.callTool({ name: 'add_skill', arguments: { task, section: 'harness', issue: 'never lands', insight: 'x' } });
process.stdout.write(`${task}\n`);
setInterval(() => {}, 1_000);
